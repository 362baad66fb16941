import type { Address } from 'viem';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { withSpan } from '@credit/telemetry/tracing';
import type { WalletReader } from '@credit/wallet/wallet-reader';
import type { WalletView } from '@credit/wallet/wallet-view';
import { featuresOfView, type WalletFeaturesNotes } from '../features/wallet-features';
import type { ScoreCache } from './score-cache';
import { NO_ACTIVITY, type ScoredWallet, type WalletOutcome } from './wallet-outcome';

export interface ScorerLogger {
  debug(message: string): void;
}

/**
 * Scores wallets from their shared reading (`WalletReader`: cache, one query and one multicall
 * per chain for the misses, the index-freshness guard). A score is a pure function of the view;
 * it is cached beside the view it came from (`ScoreCache`), so a warm request reads one small
 * verdict and re-scores nothing, and a score and a report of the same wallet within the cache's
 * TTL still come from the same reading.
 */
export class WalletScorer {
  constructor(
    private readonly reader: Pick<WalletReader, 'readWallets'>,
    private readonly scores: Pick<ScoreCache, 'get' | 'peek' | 'set'>,
    private readonly logger: ScorerLogger,
  ) {}

  /** A wallet's verdict when this replica holds it, with no promise (a warm score's path); undefined: `scoreWallets`. */
  peek(address: Address): WalletOutcome | undefined {
    return this.scores.peek(address);
  }

  async scoreWallets(addresses: readonly Address[]): Promise<Map<Address, WalletOutcome>> {
    const outcomes = await this.scores.get(addresses);
    const missing = addresses.filter((a) => !outcomes.has(a));
    if (missing.length === 0) return outcomes;
    const views = await this.reader.readWallets(missing);
    // a span while tracing is on (`pnpm bench:scoring`'s breakdown of a cold score), else a plain call
    const scored = await withSpan('score wallets', { 'credit.wallets': views.size }, async () =>
      [...views].map(([address, view]) => ({ address, view, outcome: this.outcomeOf(view) })),
    );
    for (const { address, outcome } of scored) outcomes.set(address, outcome);
    await this.scores.set(scored);
    return outcomes;
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
