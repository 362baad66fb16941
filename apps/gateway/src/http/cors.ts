import type { FastifyReply, FastifyRequest } from 'fastify';

/** Request headers a browser may send (a key, a payment), and response headers it may read. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-request-id', 'traceparent', 'x-payment', 'payment-signature'].join(', ');
const EXPOSED_HEADERS = [
  'x-request-id',
  'traceparent',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  'x-cu-cost',
  'x-cu-remaining',
  'payment-required',
  'x-payment-required',
  'payment-response',
  'x-payment-response',
].join(', ');

/**
 * CORS for browsers calling the API from any origin (docs/ARCHITECTURE.md decision 29): a key is a
 * bearer header, never a cookie, so any origin may call, and read the rate-limit, CU and payment
 * headers. Only a request with an `Origin` gets the headers, and never one to the dashboard; only a real preflight (OPTIONS with
 * `Access-Control-Request-Method`) is answered here (204); any other OPTIONS is routed like any
 * request (404 or 405 in the API's error envelope). Runs in the gateway's one `onRequest` hook
 * for every request; true when it answered the request (a preflight).
 */
export function answerCors(request: FastifyRequest, reply: FastifyReply): boolean {
  // The dashboard (cookies) is same-origin only: no CORS headers, and its own Origin check.
  if (request.headers.origin === undefined || request.url.startsWith('/dashboard')) return false;
  void reply.header('access-control-allow-origin', '*');
  void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) return false;
  void reply
    .header('access-control-allow-methods', 'GET, POST')
    .header('access-control-allow-headers', ALLOWED_HEADERS)
    .header('access-control-max-age', '600')
    .code(204)
    .send();
  return true;
}
