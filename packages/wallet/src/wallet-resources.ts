import { Redis } from 'ioredis';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { ChainActivityReader } from '@credit/db/chain-activity-reader';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { AddressResolver } from './address-resolver';
import { WalletCache } from './wallet-cache';
import type { WalletReadEnvConfig } from './wallet-read-env';
import { WalletReader } from './wallet-reader';

const REDIS_READY_WAIT_MS = 2_000;

export interface WalletResourcesLogger {
  warn(message: string): void;
}

export interface WalletReadConfig extends WalletReadEnvConfig {
  NATS_SUBJECT_PREFIX: string;
  chains: ChainRegistry;
}

/**
 * A wallet-reading service's connections, opened from its config: Redis (the wallet cache),
 * Postgres (the indexer's activity, through packages/db), one viem client per registry chain; and
 * the resolver and reader built on them. Scoring and reports each open one.
 */
export class WalletResources {
  readonly resolver: AddressResolver;
  readonly reader: WalletReader;
  readonly cache: WalletCache;

  private constructor(
    private readonly redis: Redis,
    private readonly db: Db,
    readonly chains: ReadonlyMap<number, ChainClient>,
    config: WalletReadConfig,
    logger: WalletResourcesLogger,
  ) {
    this.cache = new WalletCache(redis, config.WALLET_CACHE_TTL_SECONDS, config.NATS_SUBJECT_PREFIX, logger);
    const clients = [...chains.values()];
    this.reader = new WalletReader({
      cache: this.cache,
      activity: new ChainActivityReader(db),
      chains: clients,
      maxIndexLagSeconds: config.INDEX_MAX_LAG_SECONDS,
      now: () => new Date(),
      logger,
    });
    const ensChain = clients.find((c) => c.config.ens !== undefined);
    this.resolver = new AddressResolver(this.cache, ensChain, logger);
  }

  /**
   * Opens the connections. Waits up to `REDIS_READY_WAIT_MS` for Redis, so the first requests
   * after boot find the cache; a Redis that is down does not stop the service (it reads without
   * the cache until Redis is back).
   */
  static async open(config: WalletReadConfig, service: string, logger: WalletResourcesLogger): Promise<WalletResources> {
    const redis = new Redis(config.CACHE_REDIS_URL ?? config.REDIS_URL, {
      // a cache: a command waits at most this long, then counts as a miss (never a hang)
      commandTimeout: 2_000,
      // and while Redis is not connected, commands fail at once (a miss) instead of queueing
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectionName: `credit-${service}`,
    });
    let lastError = '';
    redis.on('error', (error: Error) => {
      // reconnects repeat the same error; say it once per change
      if (error.message !== lastError) logger.warn(`redis: ${error.message}`);
      lastError = error.message;
    });
    redis.on('ready', () => (lastError = ''));
    const db = createPrismaClient(config.DATABASE_URL, { maxConnections: 4, applicationName: `credit-${service}` });
    const chains = createChainClients(config.chains, { timeoutMs: config.CHAIN_RPC_TIMEOUT_MS, retryCount: config.CHAIN_RPC_RETRIES });
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) logger.warn(`redis not ready after ${REDIS_READY_WAIT_MS} ms: reading wallets without the cache until it is`);
    else await warnWhenCacheCannotEvict(redis, logger);
    return new WalletResources(redis, db, chains, config, logger);
  }

  async close(): Promise<void> {
    const redis = this.redis.status === 'ready' ? this.redis.quit().then(() => undefined) : Promise.resolve(this.redis.disconnect());
    await Promise.allSettled([redis, this.db.$disconnect()]);
  }
}

/**
 * Says so at boot when the cache's Redis never evicts: once full, it refuses writes, and if it
 * also holds job queues, those fail. A managed Redis may refuse CONFIG: then nothing is said.
 */
async function warnWhenCacheCannotEvict(redis: Redis, logger: WalletResourcesLogger): Promise<void> {
  const reply = (await redis.config('GET', 'maxmemory-policy').catch(() => [])) as string[];
  const policy = reply[1];
  if (policy !== undefined && !policy.startsWith('allkeys-')) {
    logger.warn(
      `the wallet cache's Redis has maxmemory-policy ${policy}: set CACHE_REDIS_URL to a Redis with allkeys-lru (infra/redis/cache.conf)`,
    );
  }
}
