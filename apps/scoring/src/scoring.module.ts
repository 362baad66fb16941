import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { ChainActivityReader } from '@credit/db/chain-activity-reader';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import type { ScoringConfig } from './config';
import { AddressResolver } from './domain/address-resolver';
import { ScoreCache } from './domain/score-cache';
import { WalletScorer } from './domain/wallet-scorer';
import { ScoringHandlers } from './scoring-handlers';
import { SCORING_DEPS, type ScoringDeps } from './use-cases/scoring-deps';

const REDIS_READY_WAIT_MS = 2_000;

/**
 * The service's connections, opened from its config: Redis (the result cache), Postgres (the
 * indexer's activity, through packages/db), one viem client per registry chain. Closed when the
 * Nest application closes (after the NATS server has stopped taking requests).
 */
export class ScoringResources implements OnApplicationShutdown {
  private readonly logger = new Logger('scoring');
  readonly deps: ScoringDeps;

  private constructor(
    private readonly redis: Redis,
    private readonly db: Db,
    readonly chains: ReadonlyMap<number, ChainClient>,
    config: ScoringConfig,
  ) {
    const cache = new ScoreCache(redis, config.SCORE_CACHE_TTL_SECONDS, config.NATS_SUBJECT_PREFIX, this.logger);
    const clients = [...chains.values()];
    const scorer = new WalletScorer({
      cache,
      activity: new ChainActivityReader(db),
      chains: clients,
      maxIndexLagSeconds: config.INDEX_MAX_LAG_SECONDS,
      now: () => new Date(),
      logger: this.logger,
    });
    const ensChain = clients.find((c) => c.config.ens !== undefined);
    this.deps = { resolver: new AddressResolver(cache, ensChain, this.logger), scorer };
  }

  /**
   * Opens the connections. Waits up to `REDIS_READY_WAIT_MS` for Redis, so the first requests
   * after boot find the cache; a Redis that is down does not stop the service (it scores without
   * the cache until Redis is back).
   */
  static async open(config: ScoringConfig): Promise<ScoringResources> {
    const redis = new Redis(config.CACHE_REDIS_URL ?? config.REDIS_URL, {
      // a cache: a command waits at most this long, then counts as a miss (never a hang)
      commandTimeout: 2_000,
      // and while Redis is not connected, commands fail at once (a miss) instead of queueing
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectionName: 'credit-scoring',
    });
    const logger = new Logger('scoring');
    let lastError = '';
    redis.on('error', (error: Error) => {
      // reconnects repeat the same error; say it once per change
      if (error.message !== lastError) logger.warn(`redis: ${error.message}`);
      lastError = error.message;
    });
    redis.on('ready', () => (lastError = ''));
    const db = createPrismaClient(config.DATABASE_URL, { maxConnections: 4, applicationName: 'credit-scoring' });
    const chains = createChainClients(config.chains, { timeoutMs: config.CHAIN_RPC_TIMEOUT_MS, retryCount: config.CHAIN_RPC_RETRIES });
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), REDIS_READY_WAIT_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) logger.warn(`redis not ready after ${REDIS_READY_WAIT_MS} ms: scoring without the cache until it is`);
    else await warnWhenCacheCannotEvict(redis, logger);
    return new ScoringResources(redis, db, chains, config);
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = this.redis.status === 'ready' ? this.redis.quit().then(() => undefined) : Promise.resolve(this.redis.disconnect());
    await Promise.allSettled([redis, this.db.$disconnect()]);
  }
}

/**
 * The scoring service: every `credit.score.*` subject, answered from the indexer's activity and
 * the chains' current state through andromeda_1.0, with a 5-minute cache per address. Built from a
 * config object, so tests boot it against their own database, Redis keys and subject prefix.
 */
@Module({})
export class ScoringModule {
  static forRoot(config: ScoringConfig): DynamicModule {
    return {
      module: ScoringModule,
      controllers: [ScoringHandlers],
      providers: [
        { provide: ScoringResources, useFactory: () => ScoringResources.open(config) },
        { provide: SCORING_DEPS, useFactory: (resources: ScoringResources) => resources.deps, inject: [ScoringResources] },
      ],
    };
  }
}

/**
 * Says so at boot when the cache's Redis never evicts: once full, it refuses writes, and if it
 * also holds job queues, those fail. A managed Redis may refuse CONFIG: then nothing is said.
 */
async function warnWhenCacheCannotEvict(redis: Redis, logger: Logger): Promise<void> {
  const reply = (await redis.config('GET', 'maxmemory-policy').catch(() => [])) as string[];
  const policy = reply[1];
  if (policy !== undefined && !policy.startsWith('allkeys-')) {
    logger.warn(
      `the score cache's Redis has maxmemory-policy ${policy}: set CACHE_REDIS_URL to a Redis with allkeys-lru (infra/redis/cache.conf)`,
    );
  }
}
