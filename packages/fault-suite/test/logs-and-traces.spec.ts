import { uniquePrefix } from '@credit/testing/unique-prefix';
import { NATS_URL, startGatewayProcess, startServiceProcess, stopAllApps, type AppProcess } from '../src/apps';
import { createKeyedDatabase, type KeyedDatabase } from '../src/keyed-database';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../src/otlp-receiver';
import { waitUntil } from '../src/ports';

/**
 * Logs and traces across the NATS hop (docs/OPERATIONS.md, "Logs" and "Traces"): the gateway and a
 * sandbox replica as child processes, each writing JSON lines with access lines on and exporting
 * spans to a local OTLP/HTTP receiver.
 */
jest.setTimeout(120_000);

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

let receiver: OtlpReceiver;
let database: KeyedDatabase;
let key: string;
let gateway: AppProcess;
let sandbox: AppProcess;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  database = await createKeyedDatabase();
  key = await database.createKey('enterprise');
  const prefix = uniquePrefix('logs');
  // Spans leave within 100 ms of their end instead of the batch's default 5 s.
  const telemetry = { LOG_LEVEL: 'log', ACCESS_LOG: 'on', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
  sandbox = await startServiceProcess('sandbox', { NATS_URL, NATS_SUBJECT_PREFIX: prefix, ...telemetry });
  gateway = await startGatewayProcess({ NATS_URL, NATS_SUBJECT_PREFIX: prefix, DATABASE_URL: database.url, ...telemetry });
});

afterAll(async () => {
  await stopAllApps();
  await database?.drop();
  await receiver?.close();
});

let n = 0;
/** A sandbox score (free, always 200) with `headers`, through `via` (the traced gateway by default). */
async function score(headers: Record<string, string> = {}, via: AppProcess = gateway): Promise<Response> {
  const address = `0x${(++n).toString(16).padStart(40, '0')}`;
  return fetch(`${via.url}/api/v2/sandbox/score/address/${address}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
}

/** Every line an app wrote, each parsed as JSON (a line that is not JSON fails the test). */
function logLines(app: AppProcess): Record<string, unknown>[] {
  return app.child
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`${app.child.name} wrote a line that is not JSON: ${line}`);
      }
    });
}

async function linesOfTrace(app: AppProcess, traceId: string): Promise<Record<string, unknown>[]> {
  let lines: Record<string, unknown>[] = [];
  await waitUntil(
    `${app.child.name} logs trace ${traceId}`,
    async () => (lines = logLines(app).filter((l) => l.trace_id === traceId)).length > 0,
    5_000,
  );
  return lines;
}

describe('a request with a traceparent', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpan = '00f067aa0ba902b7';

  it('keeps its trace id in the response, and in the JSON log lines of the gateway and of the service that answered', async () => {
    const res = await score({ traceparent: `00-${traceId}-${callerSpan}-01` });
    expect(res.status).toBe(200);
    const [, responseTrace, responseSpan] = TRACEPARENT.exec(res.headers.get('traceparent') ?? '') ?? [];
    expect({ responseTrace, differentSpan: responseSpan !== callerSpan }).toEqual({ responseTrace: traceId, differentSpan: true });
    const requestId = res.headers.get('x-request-id');
    for (const app of [gateway, sandbox]) {
      const lines = await linesOfTrace(app, traceId);
      expect(lines[0]).toMatchObject({
        service: app.child.name,
        level: 'info',
        request_id: requestId,
        msg: expect.any(String),
        time: expect.any(String),
      });
    }
  });

  it('is one trace at the OTLP receiver: the gateway’s HTTP and NATS spans, then the service’s, each the parent of the next', async () => {
    let spans: ReceivedSpan[] = [];
    // Each app sends its batch on its own: wait for the server spans of both.
    const complete = () =>
      [...new Set(spans.filter((s) => s.kind === SPAN_KIND_SERVER).map((s) => s.service))].sort().join() === 'gateway,sandbox';
    await waitUntil('spans of both apps', async () => ((spans = receiver.spans.filter((s) => s.traceId === traceId)), complete()), 10_000);
    const http = spans.find((s) => s.service === 'gateway' && s.kind === SPAN_KIND_SERVER);
    const nats = spans.find((s) => s.service === 'gateway' && s.kind === SPAN_KIND_CLIENT && s.name === 'credit.sandbox.score.address.v1');
    const handled = spans.find((s) => s.service === 'sandbox' && s.kind === SPAN_KIND_SERVER);
    expect({
      http: http && { name: http.name, parent: http.parentSpanId },
      nats: nats && { parent: nats.parentSpanId },
      handled: handled && { name: handled.name, parent: handled.parentSpanId },
    }).toEqual({
      http: { name: 'GET /api/v2/sandbox/score/address/:address', parent: callerSpan },
      nats: { parent: http?.spanId },
      handled: { name: 'credit.sandbox.score.address.v1', parent: nats?.spanId },
    });
    // The suite's first request: its key is looked up in Postgres and its rate limit in Redis.
    expect(spans.filter((s) => s.parentSpanId === http?.spanId).map((s) => s.name)).toEqual(
      expect.arrayContaining(['postgres SELECT', 'metering admit', 'credit.sandbox.score.address.v1']),
    );
  });
});

describe('a request without a usable traceparent', () => {
  it.each([
    ['none', {}],
    ['a malformed one', { traceparent: '00-not-a-trace-01' }],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` }],
    ['version ff', { traceparent: 'ff-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-01' }],
  ])('%s: answered 200 in a new trace, which the service continues', async (_, headers: Record<string, string>) => {
    const res = await score(headers);
    expect(res.status).toBe(200);
    const traceId = TRACEPARENT.exec(res.headers.get('traceparent') ?? '')?.[1];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(headers.traceparent ?? '').not.toContain(traceId);
    expect((await linesOfTrace(sandbox, traceId!))[0]).toMatchObject({ request_id: res.headers.get('x-request-id') });
  });
});

describe('secrets', () => {
  it('no bearer key, cookie or password of a request appears in the gateway’s log', async () => {
    const password = 'Tr0ub4dor&3-horse-staple';
    const cookie = 'credit_session=c00k13V4lu3s3cr3t';
    const res = await fetch(`${gateway.url}/dashboard/api/signin`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        cookie,
        'content-type': 'application/json',
        traceparent: '00-5bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      },
      body: JSON.stringify({ email: 'nobody@example.com', password }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    // An error answer carries the trace too.
    expect(res.headers.get('traceparent')).toMatch(/^00-5bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    // The request reached the sign-in route (its access line names it), and was logged.
    expect((await linesOfTrace(gateway, '5bf92f3577b34da6a3ce929d0e0e4736'))[0]).toMatchObject({ route: '/dashboard/api/signin' });
    const log = gateway.child.output();
    for (const secret of [key, 'c00k13V4lu3s3cr3t', password]) expect(log).not.toContain(secret);
  });
});

describe('with tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('the trace id still crosses NATS into both apps’ log lines and comes back in the response', async () => {
    const prefix = uniquePrefix('logs-off');
    const service = await startServiceProcess(
      'sandbox',
      { NATS_URL, NATS_SUBJECT_PREFIX: prefix, LOG_LEVEL: 'log', ACCESS_LOG: 'on' },
      'sandbox',
    );
    const untraced = await startGatewayProcess(
      { NATS_URL, NATS_SUBJECT_PREFIX: prefix, DATABASE_URL: database.url, LOG_LEVEL: 'log', ACCESS_LOG: 'on' },
      'gateway',
    );
    const traceId = '6bf92f3577b34da6a3ce929d0e0e4736';
    const res = await score({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` }, untraced);
    expect(res.status).toBe(200);
    expect(TRACEPARENT.exec(res.headers.get('traceparent') ?? '')?.[1]).toBe(traceId);
    for (const app of [untraced, service]) {
      expect((await linesOfTrace(app, traceId))[0]).toMatchObject({ service: app.child.name, request_id: res.headers.get('x-request-id') });
    }
    expect(receiver.spans.filter((s) => s.traceId === traceId)).toEqual([]);
  });
});
