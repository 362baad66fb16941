import { Counter } from 'prom-client';
import { METRICS } from '@credit/observability/process-registry';

/** Identity's own family (the shared ones are in @credit/observability): one count per address asked of each configured source. */
export const identitySourceLookups = new Counter({
  name: 'credit_identity_source_lookups_total',
  help: 'Identity provider lookups by source and outcome (found, nothing, failed), one per address asked.',
  labelNames: ['source', 'outcome'] as const,
  registers: [METRICS],
});
