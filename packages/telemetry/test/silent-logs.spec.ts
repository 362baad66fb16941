import { Writable } from 'node:stream';
import { appTelemetry } from '../src/app-telemetry';
import { createLogger } from '../src/logger';
import { currentRequestIds } from '../src/request-ids';
import { outgoingTraceparent, startRequestTrace } from '../src/request-trace';

/**
 * `LOG_LEVEL=silent` with tracing off (this file's own module registry, so its process-wide
 * effect stays here): no line is written, Nest gets no logger, and a request's ids are no longer
 * kept in its async context; the response's `traceparent` still names the caller's trace.
 */
it('writes no line and keeps no request context', async () => {
  const written: string[] = [];
  const logger = createLogger('scoring', {
    level: 'silent',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString('utf8'));
        callback();
      },
    }),
  });
  logger.fatal('never written');
  expect(written).toEqual([]);

  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const before = startRequestTrace('GET /x', `00-${traceId}-00f067aa0ba902b7-01`, 'req-1');
  expect(before.run(() => currentRequestIds()?.requestId)).toBe('req-1');

  const telemetry = appTelemetry('scoring', { logLevel: 'silent', accessLog: true });
  expect(telemetry.nestLogger).toBe(false);
  expect(telemetry.accessLog).toBeUndefined();
  const request = startRequestTrace('GET /x', `00-${traceId}-00f067aa0ba902b7-01`, 'req-2');
  expect(request.ids.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  await request.run(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(currentRequestIds()).toBeUndefined();
    expect(outgoingTraceparent()).toBeUndefined();
  });
  await telemetry.shutdown();
});
