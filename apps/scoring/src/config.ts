import { z } from 'zod';
import { ConfigError } from '@credit/config/load-config';
import { databaseEnv, healthEnv, logEnv, natsEnv, positiveInt, redisEnv, serviceLoadEnv } from '@credit/config/fragments';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { loadConfigWithChains } from '@credit/chain/config-with-chains';

export const ScoringEnv = z.object({
  ...natsEnv,
  ...healthEnv,
  ...serviceLoadEnv,
  ...logEnv,
  ...databaseEnv,
  ...redisEnv,
  /**
   * The Redis of the score cache, when it is not `REDIS_URL`. A cache must be allowed to evict
   * (`maxmemory-policy allkeys-lru`): random addresses fill it, and on the `noeviction` Redis of
   * the job queues a full cache would make jobs fail. `infra/redis/cache.conf` is such a Redis.
   */
  CACHE_REDIS_URL: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().url().optional()),
  /** How long a score (or a "no activity" outcome, or a name's address) is cached: docs/API.md §8, 5 minutes. */
  SCORE_CACHE_TTL_SECONDS: positiveInt(300),
  /**
   * How much history (seconds, last indexed block to head) the indexer may be missing beyond its
   * confirmation depth before scores are refused with 503: a score on history that stops short
   * would call an active wallet new or empty. A time, not a block count: blocks are 12 s on
   * Ethereum, 2 s on Base, and a day of seeded history on the devnet.
   */
  INDEX_MAX_LAG_SECONDS: positiveInt(600),
  /**
   * One JSON-RPC request's time limit, and how often a failed one is retried. Together they bound
   * a read of a chain that does not answer well inside the subjects' 15 s timeout, so a dead node
   * becomes an error reply, not a caller's 504.
   */
  CHAIN_RPC_TIMEOUT_MS: positiveInt(4_000),
  CHAIN_RPC_RETRIES: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(0).max(5).default(1),
  ),
});

export type ScoringEnvConfig = z.output<typeof ScoringEnv>;

/** The scoring service's configuration: the environment plus the chain registry it scores on. */
export interface ScoringConfig extends ScoringEnvConfig {
  /** The chains whose state a score reads (`CHAINS` / `CHAINS_FILE`); every one of them is read. */
  chains: ChainRegistry;
}

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError. */
export function scoringConfig(env: NodeJS.ProcessEnv = process.env): ScoringConfig {
  const { env: parsed, chains, problems } = loadConfigWithChains('scoring', ScoringEnv, env);
  if (problems.length > 0 || !parsed || !chains) throw new ConfigError(problems.join('\n'));
  return { ...parsed, chains };
}
