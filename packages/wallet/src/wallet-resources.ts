import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { connectNats, natsAuthOf } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import { closeRedis, openCacheRedis } from './cache-redis';
import { TrackedFieldCopy } from './tracked-field-copy';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { ChainActivityReader } from '@credit/db/chain-activity-reader';
import { EnsNamesReader } from '@credit/db/ens-names-reader';
import { MarketHistoryReader } from '@credit/db/market-history-reader';
import { indexFreshness } from '@credit/db/index-freshness';
import type { ReadinessCheck } from '@credit/observability/readiness';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { AddressResolver } from './address-resolver';
import { HistoryCache } from './history/history-cache';
import { WalletHistoryReader } from './history/wallet-history-reader';
import { IdentityServiceAttestations } from './identity-attestations';
import { WalletCache } from './wallet-cache';
import type { WalletReadEnvConfig } from './wallet-read-env';
import { WalletReader } from './wallet-reader';

export interface WalletResourcesLogger {
  warn(message: string): void;
}

export interface WalletReadConfig extends WalletReadEnvConfig {
  NATS_URL: string;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  NATS_INBOX_PREFIX?: string | undefined;
  NATS_SUBJECT_PREFIX: string;
  chains: ChainRegistry;
}

/**
 * A wallet-reading service's connections, opened from its config: Redis (the wallet cache),
 * Postgres (the indexer's activity, through packages/db), one viem client per registry chain, a
 * NATS connection of its own for the identity service (beside the one the service answers on);
 * and the resolver and reader built on them. Scoring and reports each open one.
 */
export class WalletResources {
  readonly resolver: AddressResolver;
  readonly reader: WalletReader;
  readonly cache: WalletCache;
  /** A wallet's past days from the index (score history) and the cache of their points. */
  readonly history: WalletHistoryReader;
  readonly historyCache: HistoryCache;
  private readonly index: ChainActivityReader;
  private readonly maxIndexLagSeconds: number;

  private constructor(
    private readonly redis: Redis,
    private readonly derived: TrackedFieldCopy | undefined,
    private readonly db: Db,
    private readonly nc: NatsConnection,
    readonly chains: ReadonlyMap<number, ChainClient>,
    config: WalletReadConfig,
    logger: WalletResourcesLogger,
  ) {
    this.cache = new WalletCache(redis, config.WALLET_CACHE_TTL_SECONDS, config.NATS_SUBJECT_PREFIX, logger, derived);
    const clients = [...chains.values()];
    this.index = new ChainActivityReader(db);
    this.maxIndexLagSeconds = config.INDEX_MAX_LAG_SECONDS;
    const names = new EnsNamesReader(db);
    const attestations = new IdentityServiceAttestations(new RpcClient(nc, config.NATS_SUBJECT_PREFIX));
    const now = () => new Date();
    this.reader = new WalletReader({
      cache: this.cache,
      activity: this.index,
      names,
      chains: clients,
      attestations,
      maxIndexLagSeconds: config.INDEX_MAX_LAG_SECONDS,
      now,
      logger,
    });
    this.history = new WalletHistoryReader({
      chains: clients,
      index: this.index,
      market: new MarketHistoryReader(db),
      names,
      attestations,
      now,
      logger,
    });
    this.historyCache = new HistoryCache(redis, config.NATS_SUBJECT_PREFIX, logger);
    const ensChain = clients.find((c) => c.config.ens !== undefined);
    this.resolver = new AddressResolver(this.cache, ensChain, logger);
  }

  /**
   * Opens the connections. Waits up to `REDIS_READY_WAIT_MS` for Redis, so the first requests
   * after boot find the cache; a Redis that is down does not stop the service (it reads without
   * the cache until Redis is back).
   */
  static async open(
    config: WalletReadConfig,
    service: string,
    logger: WalletResourcesLogger,
    /** Keep what is derived from the views (scoring's verdicts) in the process, coherent with Redis (`TrackedFieldCopy`). */
    options: { derivedCopy?: boolean } = {},
  ): Promise<WalletResources> {
    const nc = await connectNats({ url: config.NATS_URL, name: `${service}-client`, ...natsAuthOf(config) });
    const redis = await openCacheRedis(config.CACHE_REDIS_URL ?? config.REDIS_URL, service, logger);
    const derived = options.derivedCopy ? TrackedFieldCopy.open(config.CACHE_REDIS_URL ?? config.REDIS_URL, service, logger) : undefined;
    const db = createPrismaClient(config.DATABASE_URL, { maxConnections: 4, applicationName: `credit-${service}` });
    const chains = createChainClients(config.chains, { timeoutMs: config.CHAIN_RPC_TIMEOUT_MS, retryCount: config.CHAIN_RPC_RETRIES });
    return new WalletResources(redis, derived, db, nc, chains, config, logger);
  }

  /**
   * What a wallet reading needs to answer now: Postgres answers, and every chain's index is fresh
   * against the head read now (the same `indexFreshness` rule a reading applies, so `/ready` is 503
   * exactly while scores would be: during a first backfill, or when the indexer fell behind). The
   * cache's Redis is not checked: without it every read is a miss, and the answers stay right.
   */
  readinessChecks(): ReadinessCheck[] {
    const clients = [...this.chains.values()];
    return [
      {
        name: 'index',
        check: async () => {
          const [checkpoints, heads] = await Promise.all([
            this.index.checkpoints(clients.map((c) => c.config.id)),
            Promise.all(clients.map((c) => c.client.getBlock({ blockTag: 'latest' }))),
          ]);
          clients.forEach((c, i) => {
            const head = heads[i]!;
            const verdict = indexFreshness(
              c.config.id,
              { number: head.number, timestamp: head.timestamp },
              checkpoints.get(c.config.id),
              this.maxIndexLagSeconds,
            );
            if (!verdict.fresh) throw new Error(verdict.reason);
          });
        },
      },
    ];
  }

  async close(): Promise<void> {
    await Promise.allSettled([closeRedis(this.redis), this.derived?.close(), this.db.$disconnect(), this.nc.drain()]);
  }
}
