import { trace, type Span } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { outgoingTraceparent, startRequestTrace } from '../src/request-trace';
import { spanUntilSettled, startTracing, withSpan } from '../src/tracing';

// Export itself needs real Node (the OTLP exporter loads `http` by a dynamic import, which jest
// refuses): packages/fault-suite/test/logs-and-traces.spec.ts checks what a collector receives.
// Here, with tracing on, the spans as made: parents, ids on the wire, status.
beforeAll(() => {
  startTracing('test', 'http://127.0.0.1:9');
});

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER = '00f067aa0ba902b7';
const STATUS_ERROR = 2;

/** The span active inside `withSpan`, as the SDK keeps it. */
const active = () => trace.getActiveSpan() as (Span & ReadableSpan) | undefined;

it('a request continues its caller’s trace; its calls are its children, a failed one marked', async () => {
  const request = startRequestTrace('GET /x', `00-${TRACE}-${CALLER}-01`, 'req-1');
  const seen: Record<string, { span: ReadableSpan | undefined; wire?: string | undefined }> = {};
  await request.run(async () => {
    seen.server = { span: active() };
    await withSpan('nats request', {}, async () => void (seen.nats = { span: active(), wire: outgoingTraceparent() }), 'client');
    await expect(
      withSpan('failing call', {}, () => ((seen.failing = { span: active() }), Promise.reject(new Error('boom')))),
    ).rejects.toThrow('boom');
    await spanUntilSettled('redis MGET', {}, Promise.resolve());
  });
  request.end();
  const server = seen.server!.span!;
  expect(request.ids).toEqual({ requestId: 'req-1', traceId: TRACE, traceparent: `00-${TRACE}-${server.spanContext().spanId}-01` });
  expect(server.parentSpanContext?.spanId).toBe(CALLER);
  for (const child of [seen.nats!.span!, seen.failing!.span!]) {
    expect({ trace: child.spanContext().traceId, parent: child.parentSpanContext?.spanId }).toEqual({
      trace: TRACE,
      parent: server.spanContext().spanId,
    });
  }
  expect(seen.nats!.wire).toBe(`00-${TRACE}-${seen.nats!.span!.spanContext().spanId}-01`);
  expect(seen.failing!.span!.status.code).toBe(STATUS_ERROR);
  expect(seen.nats!.span!.status.code).not.toBe(STATUS_ERROR);
  expect(server.ended).toBe(true);
});

it('a malformed traceparent starts a new trace', () => {
  const request = startRequestTrace('GET /x', `00-${TRACE.toUpperCase()}-${CALLER}-01`, undefined);
  request.end();
  expect(request.ids.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(request.ids.traceId).not.toBe(TRACE.toLowerCase());
});
