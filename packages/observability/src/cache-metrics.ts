import { countedAtScrape } from './counted-at-scrape';
import { METRICS, recordingMetrics } from './process-registry';

/**
 * The caches whose reads are counted: scoring's verdicts (a hit re-scores nothing), scoring's and
 * reports' wallet views (scoring reads one only when its verdict missed), identity's
 * attestations, the gateway's API keys.
 */
export type CacheName = 'score_verdict' | 'wallet_view' | 'identity' | 'api_key';

const CACHES: readonly CacheName[] = ['score_verdict', 'wallet_view', 'identity', 'api_key'];

const cacheLookups = countedAtScrape({
  name: 'credit_cache_lookups_total',
  help: 'Cache reads by cache and outcome (hit, miss; an unreadable entry or a store error is a miss).',
  labelNames: ['cache', 'outcome'] as const,
  registers: [METRICS],
});

/** Each cache's two series, bound once. */
const lookupsOf = new Map(
  CACHES.map((cache) => [
    cache,
    { hit: cacheLookups.series({ cache, outcome: 'hit' }), miss: cacheLookups.series({ cache, outcome: 'miss' }) },
  ]),
);

/** Counts `hits` and `misses` reads of one cache (one call per batch read). */
export function countCacheLookups(cache: CacheName, hits: number, misses: number): void {
  if (!recordingMetrics()) return;
  const lookups = lookupsOf.get(cache)!;
  lookups.hit.count += hits;
  lookups.miss.count += misses;
}
