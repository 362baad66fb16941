import { performance } from 'node:perf_hooks';
import type { Msg } from 'nats';
import { RPC_HEADERS } from '@credit/contracts/rpc-wire';
import type { Logger } from '@credit/telemetry/logger';
import { startRequestTrace } from '@credit/telemetry/request-trace';
import { activeTracer } from '@credit/telemetry/tracing';

/**
 * Handles one NATS request as part of its caller's trace (the `traceparent` header; none: a new
 * trace): every log line written meanwhile carries its request and trace ids, and with tracing on
 * it is a server span, the parent of the spans its use case makes. With `accessLog`, one line
 * when it has been answered: subject, outcome (ok or the error code) and duration.
 */
export function traceMessage(subject: string, msg: Msg, accessLog: Logger | undefined, handle: () => Promise<void>): Promise<void> {
  const headers = msg.headers;
  const request = startRequestTrace(subject, headers?.get(RPC_HEADERS.traceparent), headers?.get(RPC_HEADERS.requestId) || undefined, {
    'messaging.system': 'nats',
    'messaging.destination.name': subject,
  });
  if (accessLog === undefined && activeTracer() === undefined) return request.run(handle);
  const started = performance.now();
  return request.run(handle).finally(() => {
    request.end();
    if (accessLog === undefined) return;
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    request.run(() => accessLog.info({ subject, outcome: request.ids.failure ?? 'ok', duration_ms: durationMs }, 'request handled'));
  });
}
