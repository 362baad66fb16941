import type { Server } from 'node:http';
import { requestsTotal } from '../src/request-metrics';
import { startProbeServer } from '../src/probe-server';
import { nameProcess } from '../src/process-registry';
import { Readiness } from '../src/readiness';
import { freePort } from '@credit/testing/private-nats';

/** The probe port over real HTTP: liveness, readiness from the checks, the registry on /metrics. */

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(readiness: Readiness): Promise<(path: string) => Promise<Response>> {
  const port = await freePort();
  servers.push((await startProbeServer(port, readiness))!);
  return (path) => fetch(`http://127.0.0.1:${port}${path}`);
}

it('answers /health and /healthz while the process runs, whatever the checks say', async () => {
  const get = await start(new Readiness().add({ name: 'db', check: () => Promise.reject(new Error('down')) }));
  for (const path of ['/health', '/healthz']) expect((await get(path)).status).toBe(200);
  expect((await get('/nothing')).status).toBe(404);
});

it('answers /ready and /readyz 503 with the failing checks, 200 once they pass', async () => {
  let dbUp = false;
  const readiness = new Readiness({ reuseMs: 0 }).add(
    { name: 'nats', check: () => undefined },
    {
      name: 'db',
      check: () => {
        if (!dbUp) throw new Error('Postgres refused the connection');
      },
    },
  );
  const get = await start(readiness);
  const refused = await get('/ready');
  expect(refused.status).toBe(503);
  expect(await refused.json()).toEqual({ status: 'unavailable', failing: [{ name: 'db', reason: 'Postgres refused the connection' }] });
  expect((await get('/readyz')).status).toBe(503);
  dbUp = true;
  expect((await get('/ready')).status).toBe(200);
  expect((await get('/readyz')).status).toBe(200);
});

it('fails a check that does not answer within its time limit', async () => {
  const readiness = new Readiness({ timeoutMs: 50, reuseMs: 0 }).add({ name: 'redis', check: () => new Promise(() => undefined) });
  expect(await readiness.verdict()).toEqual({ ready: false, failing: [{ name: 'redis', reason: 'redis did not answer within 50 ms' }] });
});

it('reuses a verdict within reuseMs, and runs the checks again after', async () => {
  let now = 0;
  let runs = 0;
  const readiness = new Readiness({ reuseMs: 1_000, now: () => now }).add({ name: 'count', check: () => void runs++ });
  await Promise.all([readiness.verdict(), readiness.verdict()]);
  now = 999;
  await readiness.verdict();
  expect(runs).toBe(1);
  now = 1_000;
  await readiness.verdict();
  expect(runs).toBe(2);
});

it('serves the registry as Prometheus text with the service label and the default process metrics', async () => {
  nameProcess('probe-test');
  requestsTotal.inc({ operation: 'credit.score.address.v1', outcome: 'ok' }, 3);
  const get = await start(new Readiness());
  const res = await get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const body = await res.text();
  expect(body).toContain('# TYPE credit_requests_total counter');
  expect(body).toContain('credit_requests_total{operation="credit.score.address.v1",outcome="ok",service="probe-test"} 3');
  expect(body).toMatch(/^process_cpu_user_seconds_total\{service="probe-test"\} /m);
});
