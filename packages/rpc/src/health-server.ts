import { createServer, type Server } from 'node:http';

/** The content type of Prometheus' text exposition format, as `/metrics` answers it. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * A service's metrics in Prometheus' text exposition format (version 0.0.4): `# HELP` / `# TYPE`
 * lines and samples, every line ending in `\n` (see `renderCounter`). Called on every scrape, so
 * it must be cheap and synchronous: it reads counters the service keeps in memory, never a store.
 */
export type MetricsSource = () => string;

/**
 * A liveness / readiness port for a service that otherwise only speaks NATS (Kubernetes probes,
 * compose health checks). `/healthz` answers while the process runs; `/readyz` while `ready()`;
 * `/metrics` answers `metrics()` (200, {@link PROMETHEUS_CONTENT_TYPE}; 500 if it throws) for a
 * Prometheus scrape, and 404 for a service that gives no `metrics`. Port 0: no health port.
 */
export function startHealthServer(port: number, ready: () => boolean, metrics?: MetricsSource): Promise<Server | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      let body: string | undefined;
      try {
        body = metrics?.();
      } catch {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'metrics failed' }));
        return;
      }
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'no metrics' }));
        return;
      }
      res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE });
      res.end(body);
      return;
    }
    const ok = req.url === '/healthz' || (req.url === '/readyz' && ready());
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

/** One sample of a metric: its labels (in this order) and its value. */
export interface MetricSample {
  labels: Readonly<Record<string, string>>;
  value: number;
}

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * A counter family in the text exposition format: `# HELP`, `# TYPE <name> counter`, then one
 * `name{label="value",...} value` line per sample (help text and label values escaped), each line
 * ending in `\n`, so families concatenate into a `MetricsSource`'s answer.
 */
export function renderCounter(name: string, help: string, samples: readonly MetricSample[]): string {
  const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} counter`];
  for (const { labels, value } of samples) {
    const pairs = Object.entries(labels).map(([label, text]) => `${label}="${escapeLabel(text)}"`);
    lines.push(`${name}${pairs.length > 0 ? `{${pairs.join(',')}}` : ''} ${value}`);
  }
  return `${lines.join('\n')}\n`;
}
