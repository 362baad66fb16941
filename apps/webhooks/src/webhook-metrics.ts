import { Counter, Histogram } from 'prom-client';
import { METRICS } from '@credit/observability/process-registry';

/** Attempts by outcome: `delivered` (2xx), `refused` (another status), `failed` (no answer, or a refused target). */
export const deliveryAttempts = new Counter({
  name: 'credit_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome',
  labelNames: ['outcome'] as const,
  registers: [METRICS],
});

export const deliverySeconds = new Histogram({
  name: 'credit_webhook_attempt_duration_seconds',
  help: 'Time of one webhook delivery attempt, resolution to answer',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [METRICS],
});

/** Events given up after their last attempt. */
export const deliveriesGivenUp = new Counter({
  name: 'credit_webhook_events_given_up_total',
  help: 'Webhook events whose every attempt failed',
  registers: [METRICS],
});
