import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The process's tracer while tracing is on (`startTracing` with an endpoint), undefined otherwise:
 * then `withSpan` is a plain call and no span object is ever made.
 */
let tracer: Tracer | undefined;

export interface Tracing {
  /** Sends the spans still buffered and stops (call on shutdown). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { shutdown: () => Promise.resolve() };

/**
 * Turns tracing on for this process when `endpoint` (OTEL_EXPORTER_OTLP_ENDPOINT) is set: spans are
 * batched and sent as OTLP/HTTP JSON to `<endpoint>/v1/traces`, under the resource `service.name`.
 * Once per process: a second call (several apps in one test process) keeps the first tracer.
 */
export function startTracing(service: string, endpoint: string | undefined): Tracing {
  if (endpoint === undefined || tracer !== undefined) return OFF;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('@credit/telemetry');
  return {
    shutdown: async () => {
      tracer = undefined;
      await provider.shutdown();
    },
  };
}

/** The tracer, when tracing is on. */
export function activeTracer(): Tracer | undefined {
  return tracer;
}

export type SpanKindName = 'internal' | 'client';
const KINDS: Record<SpanKindName, SpanKind> = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT };

/**
 * `fn` inside a span named `name` (a child of the active span), ended when `fn` settles; a
 * rejection marks the span as failed and is passed on. With tracing off: just `fn()`.
 */
export function withSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, kind: SpanKindName = 'internal'): Promise<T> {
  if (tracer === undefined) return fn();
  return tracer.startActiveSpan(name, { kind: KINDS[kind], attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * A client span for a call already under way, from now until `pending` settles (tracing on), as a
 * child of the active span; returns `pending` itself, so a caller's hot path gains no promise.
 */
export function spanUntilSettled<T>(name: string, attributes: Attributes, pending: Promise<T>): Promise<T> {
  if (tracer === undefined) return pending;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  pending.then(
    () => span.end(),
    (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.end();
    },
  );
  return pending;
}
