import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { WalletResources } from '@credit/wallet/wallet-resources';
import type { ReportsConfig } from './config';
import { ReportsHandlers } from './reports-handlers';
import { REPORTS_DEPS, type ReportsDeps } from './use-cases/reports-deps';

/** The shared wallet reading (`@credit/wallet`, identity attestations included), closed when the application closes. */
export class ReportsResources implements OnApplicationShutdown {
  readonly deps: ReportsDeps;

  private constructor(readonly wallets: WalletResources) {
    this.deps = {
      resolver: wallets.resolver,
      reader: wallets.reader,
      chains: [...wallets.chains.values()].map((c) => ({ id: c.config.id, name: c.config.name })),
    };
  }

  static async open(config: ReportsConfig): Promise<ReportsResources> {
    return new ReportsResources(await WalletResources.open(config, 'reports', new Logger('reports')));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.wallets.close();
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
      providers: [
        ReportsHandlers,
        { provide: ReportsResources, useFactory: () => ReportsResources.open(config) },
        { provide: REPORTS_DEPS, useFactory: (resources: ReportsResources) => resources.deps, inject: [ReportsResources] },
      ],
    };
  }
}
