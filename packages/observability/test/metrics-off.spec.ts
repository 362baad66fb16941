import type { Server } from 'node:http';
import { countCacheLookups } from '../src/cache-metrics';
import { countRpcCall } from '../src/chain-rpc-metrics';
import { startProbeServer } from '../src/probe-server';
import { METRICS, nameProcess, recordingMetrics } from '../src/process-registry';
import { Readiness } from '../src/readiness';
import { timeRequest } from '../src/request-metrics';
import { freePort } from '@credit/testing/private-nats';

/**
 * `METRICS=off` (one process: jest gives this file its own module registry): nothing is recorded
 * on the request paths, no default process metric is collected, and the probe port has no
 * `/metrics` while `/health` and `/ready` still answer.
 */

let server: Server | undefined;
afterAll(() => new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined))));

it('records nothing and serves no /metrics once an app of the process turns metrics off', async () => {
  expect(recordingMetrics()).toBe(true);
  nameProcess('metrics-off-test', 'off');
  // a second app of the same process with the default cannot turn recording back on
  nameProcess('metrics-off-test');
  expect(recordingMetrics()).toBe(false);

  timeRequest('credit.score.address.v1')('ok');
  countCacheLookups('wallet_view', 2, 1);
  countRpcCall('ethereum', false);
  const text = await METRICS.metrics();
  expect(text).not.toMatch(/^credit_requests_total\{/m);
  expect(text).not.toMatch(/^credit_cache_lookups_total\{/m);
  expect(text).not.toMatch(/^credit_rpc_calls_total\{/m);
  expect(text).not.toMatch(/^process_cpu_user_seconds_total/m);

  const port = await freePort();
  server = await startProbeServer(port, new Readiness());
  const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(metrics.status).toBe(404);
  expect(await metrics.json()).toEqual({ status: 'metrics are off (METRICS=off)' });
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
});
