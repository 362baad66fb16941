import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line written while handling one request carries (`request_id`, `trace_id`), and
 * this hop's `traceparent` for what the request calls when tracing is off (with tracing on, the
 * active span's context is the parent instead).
 */
export interface RequestIds {
  readonly requestId: string | undefined;
  readonly traceId: string;
  readonly traceparent: string;
  /** The error code the request failed with, noted where the failure becomes an answer. */
  failure?: string;
}

const storage = new AsyncLocalStorage<RequestIds>();
let keeping = true;

/**
 * Stops keeping each request's ids in its async context, for a process that writes no log line
 * and makes no span (`LOG_LEVEL=silent`, tracing off: `appTelemetry`): nothing would read them.
 */
export function dropRequestContext(): void {
  keeping = false;
}

/** Runs `fn` (and everything it starts) as part of the request `ids`. */
export function withRequestIds<T>(ids: RequestIds, fn: () => T): T {
  return keeping ? storage.run(ids, fn) : fn();
}

/** The request being handled, if any. */
export function currentRequestIds(): RequestIds | undefined {
  return storage.getStore();
}
