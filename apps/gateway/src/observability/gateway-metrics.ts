import { Counter } from 'prom-client';
import { METRICS } from '@credit/observability/process-registry';

/** The gateway's own families (the request families are shared: @credit/observability/request-metrics). */

export const cuCharged = new Counter({
  name: 'credit_cu_charged_total',
  help: 'CU kept when a metered request settled (what its answer cost), by HTTP operation id.',
  labelNames: ['operation'] as const,
  registers: [METRICS],
});

/** Why metering refused a request: its rate limit, its monthly allowance, or Redis away (fails closed). */
export type CuRefusal = 'rate_limited' | 'credit_limit_exceeded' | 'metering_unavailable';

export const cuRefused = new Counter({
  name: 'credit_cu_refused_total',
  help: 'Requests metering refused before any CU was charged, by reason (rate_limited, credit_limit_exceeded, metering_unavailable).',
  labelNames: ['reason'] as const,
  registers: [METRICS],
});

export const http429 = new Counter({
  name: 'credit_http_429_total',
  help: "429 answers, by the error code of their body (rate_limited, credit_limit_exceeded, the dashboard's limits).",
  labelNames: ['reason'] as const,
  registers: [METRICS],
});

/** A payment's verification: verified, a replay answered with what it paid for, refused (402), or the payments service unavailable. */
export type VerificationOutcome = 'verified' | 'replayed' | 'refused' | 'unavailable';

export const x402Verifications = new Counter({
  name: 'credit_x402_verifications_total',
  help: 'x402 payments sent to the payments service for verification, by outcome (verified, replayed, refused, unavailable).',
  labelNames: ['outcome'] as const,
  registers: [METRICS],
});

/** A served request's settlement: settled, refused (the answer replaced by a 402), or the payments service unavailable. */
export type SettlementOutcome = 'settled' | 'refused' | 'unavailable';

export const x402Settlements = new Counter({
  name: 'credit_x402_settlements_total',
  help: 'x402 settlements of served requests, by outcome (settled, refused, unavailable).',
  labelNames: ['outcome'] as const,
  registers: [METRICS],
});
