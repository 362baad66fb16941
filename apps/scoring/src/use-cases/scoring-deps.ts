import type { AddressResolver } from '@credit/wallet/address-resolver';
import type { HistoryCache } from '@credit/wallet/history/history-cache';
import type { WalletHistoryReader } from '@credit/wallet/history/wallet-history-reader';
import type { WalletReader } from '@credit/wallet/wallet-reader';
import type { ScoreCache } from '../domain/score-cache';
import type { WalletScorer } from '../domain/wallet-scorer';

/** What every score use case works with: input resolution and the wallet scoring data path. */
export interface ScoringDeps {
  resolver: Pick<AddressResolver, 'peekOne' | 'resolveOne' | 'resolveMany'>;
  scorer: Pick<WalletScorer, 'peek' | 'scoreWallets'>;
  /** The fresh path (`credit.score.watch.v1`): a new reading, scored, its verdict cached beside it. */
  fresh: {
    reader: Pick<WalletReader, 'readWallets'>;
    scorer: Pick<WalletScorer, 'outcomeOf'>;
    scores: Pick<ScoreCache, 'set'>;
  };
  /** The score history: past days rebuilt from the index, scored by the model, cached by model fingerprint and date. */
  history: {
    reader: Pick<WalletHistoryReader, 'readDays'>;
    cache: Pick<HistoryCache, 'get' | 'set'>;
    scorer: Pick<WalletScorer, 'outcomeOf'>;
    fingerprint: string;
  };
}

/** Injection token of the use cases' dependencies (provided by `ScoringModule.forRoot`). */
export const SCORING_DEPS = Symbol('SCORING_DEPS');
