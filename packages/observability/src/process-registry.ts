import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one Prometheus registry of this process: every family of ours registers here, next to
 * prom-client's default process metrics (CPU, memory, event loop lag, handles). One app runs per
 * process in a deployment, so `/metrics` on its probe port is exactly that app's; a test that
 * boots several apps in one process sees them share it (their counts add up).
 */
export const METRICS = new Registry();
collectDefaultMetrics({ register: METRICS });

let recording = true;

/**
 * Names this process's app (every sample labelled `service="scoring"`) and says whether it
 * records metrics (`METRICS`, packages/config `logEnv`). Off, nothing is counted on any request
 * path, the registry is emptied (no process metric is collected either) and the probe port serves
 * no `/metrics`: what a benchmark compares the default with (docs/BENCHMARKS.md). Once at boot;
 * the first app that turns recording off in a process turns it off for the process.
 */
export function nameProcess(service: string, metrics: 'on' | 'off' = 'on'): void {
  METRICS.setDefaultLabels({ service });
  if (metrics === 'off' && recording) {
    recording = false;
    // every family unregistered, prom-client's process metrics with them: nothing is collected
    METRICS.clear();
  }
}

/** Whether this process records metrics (`nameProcess`). */
export function recordingMetrics(): boolean {
  return recording;
}
