import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { createChainClients } from '@credit/chain/clients';
import { AddressResolver } from '@credit/wallet/address-resolver';
import { closeRedis, openCacheRedis } from '@credit/wallet/cache-redis';
import { WalletCache } from '@credit/wallet/wallet-cache';
import type { IdentityConfig } from './config';
import { IdentityCache } from './domain/identity-cache';
import { SourceFanout } from './domain/source-fanout';
import { IdentityHandlers } from './identity-handlers';
import { configuredSources } from './identity-sources';
import { IDENTITY_DEPS, type IdentityDeps } from './use-cases/identity-deps';

/** The identity service's connections: the cache's Redis and the ENS chain's client; closed with the application. */
export class IdentityResources implements OnApplicationShutdown {
  private constructor(
    private readonly redis: Redis,
    readonly deps: IdentityDeps,
  ) {}

  static async open(config: IdentityConfig): Promise<IdentityResources> {
    const logger = new Logger('identity');
    const redis = await openCacheRedis(config.CACHE_REDIS_URL ?? config.REDIS_URL, 'identity', logger);
    const chains = [
      ...createChainClients(config.chains, { timeoutMs: config.CHAIN_RPC_TIMEOUT_MS, retryCount: 0, multicallBatching: true }).values(),
    ];
    const ensChain = chains.find((c) => c.config.ens !== undefined);
    const sources = configuredSources(config, ensChain);
    logger.log(`identity sources: ${sources.map((s) => s.name).join(', ') || 'none'}`);
    const names = new WalletCache(redis, config.IDENTITY_CACHE_TTL_SECONDS, config.NATS_SUBJECT_PREFIX, logger);
    const deps: IdentityDeps = {
      resolver: new AddressResolver(names, ensChain, logger),
      cache: new IdentityCache(
        redis,
        config.NATS_SUBJECT_PREFIX,
        { completeSeconds: config.IDENTITY_CACHE_TTL_SECONDS, incompleteSeconds: config.IDENTITY_INCOMPLETE_CACHE_TTL_SECONDS },
        logger,
      ),
      sources: new SourceFanout(sources, logger),
      now: () => new Date(),
    };
    return new IdentityResources(redis, deps);
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.redis);
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
      controllers: [IdentityHandlers],
      providers: [
        { provide: IdentityResources, useFactory: () => IdentityResources.open(config) },
        { provide: IDENTITY_DEPS, useFactory: (resources: IdentityResources) => resources.deps, inject: [IdentityResources] },
      ],
    };
  }
}
