import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { connectNats, natsAuthOf } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import { WalletResources } from '@credit/wallet/wallet-resources';
import type { ReportsConfig } from './config';
import { IdentityServiceAttestations } from './domain/identity-attestations';
import { ReportsHandlers } from './reports-handlers';
import { REPORTS_DEPS, type ReportsDeps } from './use-cases/reports-deps';

/**
 * The shared wallet reading (`@credit/wallet`) and a NATS client for the identity service (a
 * connection of its own, beside the one the service answers on); closed when the application closes.
 */
export class ReportsResources implements OnApplicationShutdown {
  readonly deps: ReportsDeps;

  private constructor(
    readonly wallets: WalletResources,
    private readonly nc: NatsConnection,
    config: ReportsConfig,
  ) {
    this.deps = {
      resolver: wallets.resolver,
      reader: wallets.reader,
      attestations: new IdentityServiceAttestations(new RpcClient(nc, config.NATS_SUBJECT_PREFIX)),
      chains: [...wallets.chains.values()].map((c) => ({ id: c.config.id, name: c.config.name })),
    };
  }

  static async open(config: ReportsConfig): Promise<ReportsResources> {
    const nc = await connectNats({ url: config.NATS_URL, name: 'reports-client', ...natsAuthOf(config) });
    return new ReportsResources(await WalletResources.open(config, 'reports', new Logger('reports')), nc, config);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.wallets.close(), this.nc.drain()]);
  }
}

/**
 * The reports service: every `credit.report.*` subject, assembled from the same wallet reading as
 * the scores (the indexer's activity and the chains' current state, cached 5 minutes per address).
 * Built from a config object, so tests boot it against their own database, Redis keys and prefix.
 */
@Module({})
export class ReportsModule {
  static forRoot(config: ReportsConfig): DynamicModule {
    return {
      module: ReportsModule,
      controllers: [ReportsHandlers],
      providers: [
        { provide: ReportsResources, useFactory: () => ReportsResources.open(config) },
        { provide: REPORTS_DEPS, useFactory: (resources: ReportsResources) => resources.deps, inject: [ReportsResources] },
      ],
    };
  }
}
