import { createServer, type Server } from 'node:http';
import { METRICS, recordingMetrics } from './process-registry';
import type { Readiness } from './readiness';

/**
 * An app's probe port (`HEALTH_PORT`), apart from any public port: `/health` answers 200 while
 * the process runs (liveness); `/ready` 200 when every readiness check passes, else 503 with the
 * failing checks (readiness: a load balancer or `pnpm start` waits on it); `/metrics` the
 * process's registry in Prometheus' text format (404 with `METRICS=off`). `/healthz` and `/readyz` are the older names of
 * the first two. Port 0: no probe port.
 */
export async function startProbeServer(port: number, readiness: Readiness): Promise<Server | undefined> {
  if (port === 0) return undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    switch (path) {
      case '/health':
      case '/healthz':
        return json(200, { status: 'ok' });
      case '/ready':
      case '/readyz':
        void readiness.verdict().then(
          ({ ready, failing }) => json(ready ? 200 : 503, ready ? { status: 'ok' } : { status: 'unavailable', failing }),
          () => json(503, { status: 'unavailable' }),
        );
        return;
      case '/metrics':
        if (!recordingMetrics()) return json(404, { status: 'metrics are off (METRICS=off)' });
        void METRICS.metrics().then(
          (body) => {
            res.writeHead(200, { 'content-type': METRICS.contentType });
            res.end(body);
          },
          () => json(500, { status: 'metrics failed' }),
        );
        return;
      default:
        return json(404, { status: 'not found' });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return server;
}
