import { renderCounter } from '@credit/rpc/health-server';
import type { ServiceMetrics } from '@credit/rpc/start-service';
import { IdentityResources, type IdentityCounters } from './identity.module';

const OUTCOMES = ['found', 'nothing', 'failed'] as const;

/**
 * The identity service's counters in Prometheus' text exposition format:
 * `identity_source_lookups_total{source, outcome}` (outcome `found` | `nothing` | `failed`, one
 * per address asked, every configured source with all three) and
 * `identity_cache_lookups_total{outcome}` (`hit` | `miss`, one per address read).
 */
export function renderIdentityMetrics(counters: IdentityCounters): string {
  const sources = Object.entries(counters.sources).flatMap(([source, counts]) =>
    OUTCOMES.map((outcome) => ({ labels: { source, outcome }, value: counts[outcome] })),
  );
  return (
    renderCounter('identity_source_lookups_total', 'Identity provider lookups by source and outcome.', sources) +
    renderCounter('identity_cache_lookups_total', 'Identity cache reads by outcome (a Redis error or an unreadable entry is a miss).', [
      { labels: { outcome: 'hit' }, value: counters.cache.hit },
      { labels: { outcome: 'miss' }, value: counters.cache.miss },
    ])
  );
}

/** `startService`'s `metrics` for the identity service: the counters of the running app's IdentityResources. */
export const identityMetrics: ServiceMetrics = (app) => renderIdentityMetrics(app.get(IdentityResources).counters);
