import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Span } from '@opentelemetry/api';
import { currentRequestIds, withRequestIds, type RequestIds } from './request-ids';
import { formatTraceparent, newSpanId, newTraceId, parseTraceparent } from './trace-context';
import { activeTracer } from './tracing';

/** One request handled by this process (an HTTP request at the gateway, a NATS message at a service). */
export interface RequestTrace {
  readonly ids: RequestIds;
  /** Runs `fn` as part of the request: its log lines carry the ids, its spans are children of this one. */
  run<T>(fn: () => T): T;
  /** Ends the request's span (tracing on), failed when `failure` is given or was noted (`noteRequestFailure`). */
  end(attributes?: Attributes, failure?: string): void;
}

/**
 * Continues the trace of `incoming` (a `traceparent` header; absent or malformed: a new trace) for
 * one request. Tracing off, that is all: a span id of this hop for the `traceparent` it passes on,
 * and the ids in the request's context. Tracing on, a server span, child of the caller's.
 */
export function startRequestTrace(
  name: string,
  incoming: unknown,
  requestId: string | undefined,
  attributes: Attributes = {},
): RequestTrace {
  const parent = parseTraceparent(incoming);
  const tracer = activeTracer();
  if (tracer === undefined) {
    const traceId = parent?.traceId ?? newTraceId();
    const ids: RequestIds = {
      requestId,
      traceId,
      traceparent: formatTraceparent({ traceId, spanId: newSpanId(), sampled: parent?.sampled ?? false }),
    };
    return { ids, run: (fn) => withRequestIds(ids, fn), end: () => undefined };
  }
  const parentContext =
    parent === undefined
      ? ROOT_CONTEXT
      : trace.setSpanContext(ROOT_CONTEXT, {
          traceId: parent.traceId,
          spanId: parent.spanId,
          traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: true,
        });
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parentContext);
  const spanContext = span.spanContext();
  const ids: RequestIds = {
    requestId,
    traceId: spanContext.traceId,
    traceparent: formatTraceparent({ ...spanContext, sampled: (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0 }),
  };
  const active = trace.setSpan(parentContext, span);
  return {
    ids,
    run: (fn) => context.with(active, () => withRequestIds(ids, fn)),
    end: (endAttributes, failure) => endSpan(span, endAttributes, failure ?? ids.failure),
  };
}

function endSpan(span: Span, attributes: Attributes | undefined, failure: string | undefined): void {
  if (attributes !== undefined) span.setAttributes(attributes);
  if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
  span.end();
}

/**
 * The `traceparent` for a call this request makes (a NATS request): the active span's (tracing
 * on, inside the call's client span), else this hop's. Undefined outside any request.
 */
export function outgoingTraceparent(): string | undefined {
  const span = activeTracer() === undefined ? undefined : trace.getActiveSpan();
  if (span !== undefined) {
    const ctx = span.spanContext();
    return formatTraceparent({ traceId: ctx.traceId, spanId: ctx.spanId, sampled: (ctx.traceFlags & TraceFlags.SAMPLED) !== 0 });
  }
  return currentRequestIds()?.traceparent;
}

/** Notes that the request being handled failed with `code` (its access line and span say so). */
export function noteRequestFailure(code: string): void {
  const ids = currentRequestIds();
  if (ids !== undefined) ids.failure = code;
}
