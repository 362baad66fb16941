import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath } from '@credit/contracts/http-operations';
import { recordingMetrics } from '@credit/observability/process-registry';
import { outcomeOfStatus, timeRequest, type RequestOutcome } from '@credit/observability/request-metrics';
import { routeOf } from '../http/route-of';
import { routePath } from '../routes/operation-routes';

const RECORD = Symbol('recordRequest');
type TimedRequest = FastifyRequest & { [RECORD]?: (outcome: RequestOutcome) => void };

/**
 * The `operation` label of each operation route, by `<METHOD> <route>`: its HTTP operation id
 * (`scoreAddress`), `sandbox.<id>` for the sandbox's. Any other route is labelled by its route
 * template (`GET /users/me`, a closed set); a request no route matched, `unmatched`.
 */
function operationLabels(): Map<string, string> {
  const labels = new Map<string, string>();
  for (const id of OPERATION_IDS) {
    const { method } = HTTP_OPERATIONS[id];
    labels.set(`${method} ${routePath(operationPath(id, 'production'))}`, id);
    labels.set(`${method} ${routePath(operationPath(id, 'sandbox'))}`, `sandbox.${id}`);
  }
  return labels;
}

/**
 * Counts every HTTP request the gateway answers (`credit_requests_total`, its duration and the
 * in-flight gauge), from the moment it arrives to the moment its answer is sent, outcome by the
 * status class; a request whose client went away counts as a client error. Metrics off, no hook. Hooks added before the
 * routes are registered, so they run for every route.
 */
export function countHttpRequests(fastify: FastifyInstance): void {
  if (!recordingMetrics()) return;
  const labels = operationLabels();
  const labelOf = (request: FastifyRequest): string => {
    const route = routeOf(request);
    if (route === undefined) return 'unmatched';
    const key = `${request.method} ${route}`;
    return labels.get(key) ?? key;
  };
  fastify.addHook('onRequest', (request: TimedRequest, _reply, done) => {
    request[RECORD] = timeRequest(labelOf(request));
    done();
  });
  fastify.addHook('onResponse', (request: TimedRequest, reply, done) => {
    request[RECORD]?.(outcomeOfStatus(reply.statusCode));
    done();
  });
  fastify.addHook('onRequestAbort', (request: TimedRequest, done) => {
    request[RECORD]?.('client_error');
    done();
  });
}
