import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one Prometheus registry of this process: every family of ours registers here, next to
 * prom-client's default process metrics (CPU, memory, event loop lag, handles). One app runs per
 * process in a deployment, so `/metrics` on its probe port is exactly that app's; a test that
 * boots several apps in one process sees them share it (their counts add up).
 */
export const METRICS = new Registry();
collectDefaultMetrics({ register: METRICS });

/** Labels every sample of this process with the app's name (`service="scoring"`), once at boot. */
export function nameProcess(service: string): void {
  METRICS.setDefaultLabels({ service });
}
