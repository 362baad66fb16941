import type { AddressResolver } from '@credit/wallet/address-resolver';
import type { WalletScorer } from '../domain/wallet-scorer';

/** What every score use case works with: input resolution and the wallet scoring data path. */
export interface ScoringDeps {
  resolver: Pick<AddressResolver, 'resolveOne' | 'resolveMany'>;
  scorer: Pick<WalletScorer, 'scoreWallets'>;
}

/** Injection token of the use cases' dependencies (provided by `ScoringModule.forRoot`). */
export const SCORING_DEPS = Symbol('SCORING_DEPS');
