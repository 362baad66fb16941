import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '@credit/telemetry/logger';
import { startRequestTrace, type RequestTrace } from '@credit/telemetry/request-trace';
import { routeOf } from './route-of';

const TRACE = Symbol('requestTrace');
type TracedRequest = FastifyRequest & { [TRACE]?: RequestTrace };

/**
 * Every HTTP request as part of a trace: the caller's `traceparent` continued (absent or
 * malformed: a new trace, never an error), the response's `traceparent` naming the same trace, and
 * everything the request runs (hooks, handler, NATS requests, their log lines) inside its context.
 * With tracing on, a server span from arrival to the answer sent. With `accessLog`, one line per
 * request answered: method, route template (never the URL: it may hold a token or an address),
 * status and duration. Added before any other hook, so that those run inside the context.
 */
export function traceRequests(fastify: FastifyInstance, accessLog: Logger | undefined): void {
  fastify.addHook('onRequest', (request: TracedRequest, reply, done) => {
    const route = routeOf(request) ?? 'unmatched';
    const trace = startRequestTrace(`${request.method} ${route}`, request.headers.traceparent, request.id, {
      'http.request.method': request.method,
      'http.route': route,
    });
    request[TRACE] = trace;
    void reply.header('traceparent', trace.ids.traceparent);
    trace.run(done);
  });
  fastify.addHook('onResponse', (request: TracedRequest, reply, done) => {
    const trace = request[TRACE];
    if (trace !== undefined) {
      const status = reply.statusCode;
      trace.end({ 'http.response.status_code': status }, status >= 500 ? `HTTP ${status}` : undefined);
      if (accessLog !== undefined) {
        const line = {
          method: request.method,
          route: routeOf(request) ?? 'unmatched',
          status,
          duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        };
        trace.run(() => accessLog.info(line, 'request answered'));
      }
    }
    done();
  });
}
