import { Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { WalletResources } from '@credit/wallet/wallet-resources';
import type { ScoringConfig } from './config';
import { modelFingerprint } from './domain/model-fingerprint';
import { ScoreCache } from './domain/score-cache';
import { WalletScorer } from './domain/wallet-scorer';
import { ScoringHandlers } from './scoring-handlers';
import { SCORING_DEPS, type ScoringDeps } from './use-cases/scoring-deps';

/** The shared wallet reading (`@credit/wallet`), closed when the Nest application closes. */
export class ScoringResources implements OnApplicationShutdown {
  readonly deps: ScoringDeps;

  private constructor(readonly wallets: WalletResources) {
    const fingerprint = modelFingerprint();
    const scores = new ScoreCache(wallets.cache, fingerprint);
    const scorer = new WalletScorer(wallets.reader, scores, new Logger('scoring'));
    this.deps = {
      resolver: wallets.resolver,
      scorer,
      fresh: { reader: wallets.reader, scorer, scores },
      history: { reader: wallets.history, cache: wallets.historyCache, scorer, fingerprint },
    };
  }

  static async open(config: ScoringConfig): Promise<ScoringResources> {
    return new ScoringResources(await WalletResources.open(config, 'scoring', new Logger('scoring'), { derivedCopy: true }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.wallets.close();
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
      providers: [
        ScoringHandlers,
        { provide: ScoringResources, useFactory: () => ScoringResources.open(config) },
        { provide: SCORING_DEPS, useFactory: (resources: ScoringResources) => resources.deps, inject: [ScoringResources] },
      ],
    };
  }
}
