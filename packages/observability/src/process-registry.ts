import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one Prometheus registry of this process: every family of ours registers here, next to
 * prom-client's default process metrics (CPU, memory, event loop lag, handles). One app runs per
 * process in a deployment, so `/metrics` on its probe port is exactly that app's; a test that
 * boots several apps in one process sees them share it (their counts add up).
 */
export const METRICS = new Registry();

let recording = true;
let defaultsCollected = false;

/**
 * Names this process's app (every sample labelled `service="scoring"`) and says whether it
 * records metrics (`METRICS`, packages/config `logEnv`). Off, nothing is counted on any request
 * path, no default process metric is collected and the probe port serves no `/metrics`: what a
 * benchmark compares the default with (docs/BENCHMARKS.md). Once at boot; the first app that
 * turns recording off in a process turns it off for the process.
 */
export function nameProcess(service: string, metrics: 'on' | 'off' = 'on'): void {
  METRICS.setDefaultLabels({ service });
  if (metrics === 'off') recording = false;
  if (recording && !defaultsCollected) {
    defaultsCollected = true;
    collectDefaultMetrics({ register: METRICS });
  }
}

/** Whether this process records metrics (`nameProcess`). */
export function recordingMetrics(): boolean {
  return recording;
}
