import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { PROMETHEUS_CONTENT_TYPE, renderCounter, startHealthServer } from '../src/health-server';

/** The health port over real HTTP: `/metrics` is 404 without metrics, the exposition with them. */

/** A TCP port nobody listens on right now (this package does not depend on @credit/testing). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(metrics?: () => string): Promise<(path: string) => Promise<Response>> {
  const port = await freePort();
  const server = await startHealthServer(port, () => true, metrics);
  servers.push(server!);
  return (path) => fetch(`http://127.0.0.1:${port}${path}`);
}

it('answers 404 on /metrics when the service gives no metrics; /healthz and /readyz as before', async () => {
  const get = await start();
  expect((await get('/metrics')).status).toBe(404);
  expect((await get('/healthz')).status).toBe(200);
  expect((await get('/readyz')).status).toBe(200);
});

it('answers the metrics as Prometheus text exposition, 500 when they throw', async () => {
  const get = await start(() =>
    renderCounter('demo_total', 'A demo\\counter.', [
      { labels: { kind: 'a "quoted"\nvalue' }, value: 0 },
      { labels: {}, value: 7 },
    ]),
  );
  const res = await get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(PROMETHEUS_CONTENT_TYPE);
  expect(await res.text()).toBe(
    [
      '# HELP demo_total A demo\\\\counter.',
      '# TYPE demo_total counter',
      'demo_total{kind="a \\"quoted\\"\\nvalue"} 0',
      'demo_total 7',
      '',
    ].join('\n'),
  );

  const failing = await start(() => {
    throw new Error('broken');
  });
  expect((await failing('/metrics')).status).toBe(500);
});
