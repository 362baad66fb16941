import { z } from 'zod';
import { blankIsUnset, cacheRedisEnv, databaseEnv, positiveInt, redisEnv } from '@credit/config/fragments';

/** The settings of a service that reads wallets (scoring, reports): its config schema spreads these in. */
export const walletReadEnv = {
  ...databaseEnv,
  ...redisEnv,
  /** The wallet cache's own evicting Redis (`CACHE_REDIS_URL`). */
  ...cacheRedisEnv,
  /** How long a wallet's reading (and a name's address) is cached: docs/API.md §8, 5 minutes. */
  WALLET_CACHE_TTL_SECONDS: positiveInt(300),
  /**
   * How much history (seconds, last indexed block to head) the indexer may be missing beyond its
   * confirmation depth before readings are refused with 503: a score or report on history that
   * stops short would call an active wallet new or empty. A time, not a block count: blocks are
   * 12 s on Ethereum, 2 s on Base, and a day of seeded history on the devnet.
   */
  INDEX_MAX_LAG_SECONDS: positiveInt(600),
  /**
   * One JSON-RPC request's time limit, and how often a failed one is retried. Together they bound
   * a read of a chain that does not answer well inside the subjects' timeouts, so a dead node
   * becomes an error reply, not a caller's 504.
   */
  CHAIN_RPC_TIMEOUT_MS: positiveInt(4_000),
  CHAIN_RPC_RETRIES: z.preprocess(blankIsUnset, z.coerce.number().int().min(0).max(5).default(1)),
};

/** The fragment alone, as a schema (its output type is what WalletResources reads). */
export const WalletReadEnv = z.object(walletReadEnv);
export type WalletReadEnvConfig = z.output<typeof WalletReadEnv>;
