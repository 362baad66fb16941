import { Counter } from 'prom-client';
import { METRICS } from './process-registry';

/** The caches whose reads are counted: scoring's and reports' wallet views, identity's attestations, the gateway's API keys. */
export type CacheName = 'wallet_view' | 'identity' | 'api_key';

const cacheLookups = new Counter({
  name: 'credit_cache_lookups_total',
  help: 'Cache reads by cache and outcome (hit, miss; an unreadable entry or a store error is a miss).',
  labelNames: ['cache', 'outcome'] as const,
  registers: [METRICS],
});

/** Counts `hits` and `misses` reads of one cache (one call per batch read). */
export function countCacheLookups(cache: CacheName, hits: number, misses: number): void {
  if (hits > 0) cacheLookups.inc({ cache, outcome: 'hit' }, hits);
  if (misses > 0) cacheLookups.inc({ cache, outcome: 'miss' }, misses);
}
