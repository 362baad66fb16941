import type { FastifyInstance } from 'fastify';
import type { HttpCall } from '@credit/contracts/agent-tools';

/** The HTTP headers of a REST answer that a tool call passes on to the MCP response. */
const METERING_HEADERS = ['x-cu-cost', 'x-cu-remaining', 'ratelimit', 'ratelimit-policy'] as const;

export interface RestAnswer {
  status: number;
  body: unknown;
  headers: Partial<Record<(typeof METERING_HEADERS)[number], string>>;
}

/**
 * Runs a REST call inside the gateway (Fastify's `inject`: no socket, the same routes, hooks and
 * handlers as a call from outside), so a tool call is authenticated, admitted, forwarded, charged
 * and settled by the one billing path of the REST route (docs/ARCHITECTURE.md decision 33).
 */
export async function dispatchRest(
  fastify: FastifyInstance,
  call: HttpCall,
  caller: { authorization: string; requestId: string },
): Promise<RestAnswer> {
  const headers: Record<string, string> = { authorization: caller.authorization, 'x-request-id': caller.requestId };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fastify.inject({
    method: call.method,
    url: call.url,
    headers,
    ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
  });
  const kept: RestAnswer['headers'] = {};
  for (const name of METERING_HEADERS) {
    const value = res.headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return { status: res.statusCode, body: res.json(), headers: kept };
}
