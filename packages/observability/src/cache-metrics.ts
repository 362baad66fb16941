import { Counter } from 'prom-client';
import { METRICS, recordingMetrics } from './process-registry';

/**
 * The caches whose reads are counted: scoring's verdicts (a hit re-scores nothing), scoring's and
 * reports' wallet views (scoring reads one only when its verdict missed), identity's
 * attestations, the gateway's API keys.
 */
export type CacheName = 'score_verdict' | 'wallet_view' | 'identity' | 'api_key';

const cacheLookups = new Counter({
  name: 'credit_cache_lookups_total',
  help: 'Cache reads by cache and outcome (hit, miss; an unreadable entry or a store error is a miss).',
  labelNames: ['cache', 'outcome'] as const,
  registers: [METRICS],
});

/** Counts `hits` and `misses` reads of one cache (one call per batch read). */
export function countCacheLookups(cache: CacheName, hits: number, misses: number): void {
  if (!recordingMetrics()) return;
  if (hits > 0) cacheLookups.inc({ cache, outcome: 'hit' }, hits);
  if (misses > 0) cacheLookups.inc({ cache, outcome: 'miss' }, misses);
}
