import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { createChainClients } from '@credit/chain/clients';
import { ChainActivityReader } from '@credit/db/chain-activity-reader';
import { EnsNamesReader } from '@credit/db/ens-names-reader';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { AddressResolver } from '@credit/wallet/address-resolver';
import { closeRedis, openCacheRedis } from '@credit/wallet/cache-redis';
import { WalletCache } from '@credit/wallet/wallet-cache';
import type { ReadinessCheck } from '@credit/observability/readiness';
import type { IdentityConfig } from './config';
import { IdentityCache } from './domain/identity-cache';
import { IndexedOwnedNames } from './domain/indexed-owned-names';
import { SourceFanout } from './domain/source-fanout';
import { IdentityHandlers } from './identity-handlers';
import { configuredSources } from './identity-sources';
import { IDENTITY_DEPS, type IdentityDeps } from './use-cases/identity-deps';

/**
 * The identity service's connections: the cache's Redis, the indexer's Postgres (the name index)
 * and the ENS chain's client; closed with the application. Also holds the use case's dependencies
 * and what `/ready` checks (`readinessChecks`).
 */
export class IdentityResources implements OnApplicationShutdown {
  private constructor(
    private readonly redis: Redis,
    private readonly db: Db,
    readonly deps: IdentityDeps,
  ) {}

  /** Postgres answers (the name index). The cache's Redis is optional by design: without it every read is a miss. */
  readinessChecks(): ReadinessCheck[] {
    return [{ name: 'postgres', check: async () => void (await this.db.$queryRaw`SELECT 1`) }];
  }

  static async open(config: IdentityConfig): Promise<IdentityResources> {
    const logger = new Logger('identity');
    const redis = await openCacheRedis(config.CACHE_REDIS_URL ?? config.REDIS_URL, 'identity', logger);
    const chains = [
      ...createChainClients(config.chains, { timeoutMs: config.CHAIN_RPC_TIMEOUT_MS, retryCount: 0, multicallBatching: true }).values(),
    ];
    const ensChain = chains.find((c) => c.config.ens !== undefined);
    const db = createPrismaClient(config.DATABASE_URL, { maxConnections: 2, applicationName: 'credit-identity' });
    const ownedNames =
      ensChain?.config.ens?.registry && ensChain.config.ens.registrarController
        ? new IndexedOwnedNames({
            chain: ensChain,
            names: new EnsNamesReader(db),
            index: new ChainActivityReader(db),
            maxIndexLagSeconds: config.INDEX_MAX_LAG_SECONDS,
          })
        : undefined;
    const sources = configuredSources(config, ensChain, ownedNames);
    logger.log(`identity sources: ${sources.map((s) => s.name).join(', ') || 'none'}`);
    const names = new WalletCache(redis, config.IDENTITY_CACHE_TTL_SECONDS, config.NATS_SUBJECT_PREFIX, logger);
    const cache = new IdentityCache(
      redis,
      config.NATS_SUBJECT_PREFIX,
      { completeSeconds: config.IDENTITY_CACHE_TTL_SECONDS, incompleteSeconds: config.IDENTITY_INCOMPLETE_CACHE_TTL_SECONDS },
      logger,
    );
    const fanout = new SourceFanout(sources, logger);
    const deps: IdentityDeps = {
      resolver: new AddressResolver(names, ensChain, logger),
      cache,
      sources: fanout,
      now: () => new Date(),
    };
    return new IdentityResources(redis, db, deps);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([closeRedis(this.redis), this.db.$disconnect()]);
  }
}

/**
 * The identity service: `credit.identity.attestations.v1` from the name service on chain and the
 * configured providers, asked in parallel, cached 5 minutes per address.
 */
@Module({})
export class IdentityModule {
  static forRoot(config: IdentityConfig): DynamicModule {
    return {
      module: IdentityModule,
      providers: [
        IdentityHandlers,
        { provide: IdentityResources, useFactory: () => IdentityResources.open(config) },
        { provide: IDENTITY_DEPS, useFactory: (resources: IdentityResources) => resources.deps, inject: [IdentityResources] },
      ],
    };
  }
}
