import { performance } from 'node:perf_hooks';
import { Gauge, Histogram } from 'prom-client';
import { countedAtScrape, type ScrapeCount } from './counted-at-scrape';
import { METRICS, recordingMetrics } from './process-registry';

/** How a request ended, from the caller's side: its answer's status class, 503 apart. */
export type RequestOutcome = 'ok' | 'client_error' | 'server_error' | 'unavailable';

/** 2xx/3xx → ok, 503 → unavailable (overload, a dependency down), other 5xx → server_error, 4xx → client_error. */
export function outcomeOfStatus(status: number): RequestOutcome {
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}

/**
 * The requests an app answers (a NATS service: by subject operation; the gateway: by HTTP
 * operation id). Labels are closed sets: never an address, a key or a request id.
 */
const totals = countedAtScrape({
  name: 'credit_requests_total',
  help: 'Requests answered, by operation and outcome (ok, client_error, server_error, unavailable).',
  labelNames: ['operation', 'outcome'] as const,
  registers: [METRICS],
});
export const requestsTotal = totals.counter;

/** Buckets from 1 ms (a cached score) to 10 s (the longest subject timeout). */
const requestDuration = new Histogram({
  name: 'credit_request_duration_seconds',
  help: 'Time from a request taken to its answer sent, by operation.',
  labelNames: ['operation'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [METRICS],
});

/** Requests taken and not yet answered, read at scrape time. */
let inFlight = 0;

/** The HPAs' second signal (infra/k8s): requests being worked on right now. */
new Gauge({
  name: 'credit_requests_in_flight',
  help: 'Requests taken and not yet answered.',
  registers: [METRICS],
  collect() {
    this.set(inFlight);
  },
});

let readQueued: () => number = () => 0;

/**
 * Requests received and waiting to start. A NATS service reads it at scrape time from its
 * subscriptions' pending messages (`countQueuedWith`); the gateway starts every request it
 * accepts at once, so its value stays 0 there.
 */
new Gauge({
  name: 'credit_requests_queued',
  help: 'Requests received and not yet started.',
  registers: [METRICS],
  collect() {
    this.set(readQueued());
  },
});

/** Where `credit_requests_queued` comes from, read on every scrape (the last one given wins). */
export function countQueuedWith(read: () => number): void {
  readQueued = read;
}

type Recorder = (outcome: RequestOutcome) => void;
const NOT_RECORDED: Recorder = () => undefined;
const OUTCOMES: readonly RequestOutcome[] = ['ok', 'client_error', 'server_error', 'unavailable'];

/** One operation's series, bound once (a label lookup per request is measurable on the hot path). */
interface OperationSeries {
  readonly duration: ReturnType<typeof requestDuration.labels>;
  readonly total: Record<RequestOutcome, ScrapeCount>;
}
const seriesByOperation = new Map<string, OperationSeries>();

function seriesOf(operation: string): OperationSeries {
  let series = seriesByOperation.get(operation);
  if (series === undefined) {
    const total = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, totals.series({ operation, outcome })]));
    series = { duration: requestDuration.labels(operation), total: total as unknown as OperationSeries['total'] };
    seriesByOperation.set(operation, series);
  }
  return series;
}

/**
 * Starts timing one request; the returned function records it once, with its outcome. Metrics
 * off (`nameProcess`), it records nothing.
 */
export function timeRequest(operation: string): Recorder {
  if (!recordingMetrics()) return NOT_RECORDED;
  const series = seriesOf(operation);
  inFlight++;
  const started = performance.now();
  let recorded = false;
  return (outcome) => {
    if (recorded) return;
    recorded = true;
    inFlight--;
    series.duration.observe((performance.now() - started) / 1000);
    series.total[outcome].count++;
  };
}
