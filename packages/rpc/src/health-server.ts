import { createServer, type Server } from 'node:http';

/**
 * A liveness / readiness port for a service that otherwise only speaks NATS (Kubernetes probes,
 * compose health checks). `/healthz` answers while the process runs; `/readyz` while `ready()`.
 */
export function startHealthServer(port: number, ready: () => boolean): Promise<Server | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  const server = createServer((req, res) => {
    const ok = req.url === '/healthz' || (req.url === '/readyz' && ready());
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
