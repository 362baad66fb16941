import type { Address } from 'viem';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import type { WalletReader } from '@credit/wallet/wallet-reader';
import type { WalletView } from '@credit/wallet/wallet-view';
import { featuresOfView, type WalletFeaturesNotes } from '../features/wallet-features';
import { NO_ACTIVITY, type ScoredWallet, type WalletOutcome } from './wallet-outcome';

export interface ScorerLogger {
  debug(message: string): void;
}

/**
 * Scores wallets from their shared reading (`WalletReader`: cache, one query and one multicall
 * per chain for the misses, the index-freshness guard). A score is a pure function of the view, so
 * it is computed on every request (microseconds) and never cached apart from the view: a score and
 * a report of the same wallet within the cache's TTL come from the same reading.
 */
export class WalletScorer {
  constructor(
    private readonly reader: Pick<WalletReader, 'readWallets'>,
    private readonly logger: ScorerLogger,
  ) {}

  async scoreWallets(addresses: readonly Address[]): Promise<Map<Address, WalletOutcome>> {
    const views = await this.reader.readWallets(addresses);
    return new Map([...views].map(([address, view]) => [address, this.outcomeOf(view)]));
  }

  /** features → andromeda_1.0; a wallet without any activity or holding is "no activity". */
  outcomeOf(view: WalletView): WalletOutcome {
    const { features, notes } = featuresOfView(view);
    this.logNotes(view.address, notes);
    if (!hasActivity(features)) return NO_ACTIVITY;
    const result = scoreWallet(features);
    const scored: ScoredWallet = {
      score: result.score,
      factors: result.factors.map((f) => ({
        label: f.label,
        points: f.points,
        pointsLost: f.pointsLost,
        rating: f.rating,
        reasons: [...f.reasons],
      })),
      computedAt: view.computedAt,
      asOf: new Date(view.asOfSeconds * 1000).toISOString(),
    };
    return scored;
  }

  private logNotes(address: string, notes: WalletFeaturesNotes): void {
    const parts = Object.entries(notes)
      .filter(([, chains]) => chains.length > 0)
      .map(([note, chains]) => `${note}=${(chains as number[]).join(',')}`);
    if (parts.length > 0) this.logger.debug(`${address}: incomplete reading (${parts.join('; ')})`);
  }
}
