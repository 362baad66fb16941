import { SCORE_MAX, SCORE_MIN, clampScore } from '../score-bands';
import { segmentOf, type Scorecards, type Segment } from './characteristics';
import { factorsOf, isThin, recoveryCap, type FactorResult } from './factors';
import { validateFeatures, type WalletFeatures } from './features';
import { ANDROMEDA_1_0, MODEL_ID } from './model-table';

const M = ANDROMEDA_1_0;

export interface ScoreResult {
  model: typeof MODEL_ID;
  /** Integer in 300..1000. */
  score: number;
  /** The scorecard it was scored on. */
  segment: Segment;
  /** One per factor, in the order of `FACTOR_ORDER`. */
  factors: FactorResult[];
  /** The fitted probability of a liquidation within 90 days, before the caps (from base + points). */
  probability: number;
}

/**
 * Any recorded activity or holding. A liquidation alone is not evidence in the wallet's favour.
 * A wallet without any is not scored by the API (404): its score would be the floor, `emptyScore`.
 */
export function hasActivity(f: WalletFeatures): boolean {
  return (
    f.walletAgeDays > 0 ||
    f.txCount > 0 ||
    f.transferCount > 0 ||
    f.supplyCount > 0 ||
    f.borrowCount > 0 ||
    f.repayCount > 0 ||
    f.totalAssetUsd > 0 ||
    f.collateralUsd > 0
  );
}

/** The probability of a liquidation within 90 days that a point on the scale states. */
export function probabilityOf(score: number): number {
  const s = M.scale;
  return 1 / (1 + Math.exp(((score - s.evenOddsScore) * Math.LN2) / s.pointsToDoubleOdds));
}

/**
 * andromeda_1.0: features → an integer score in 300..1000 with its six factors and their reasons.
 * Pure and deterministic. Throws a RangeError for invalid features (see `validateFeatures`).
 *
 * score = the segment's base + Σ each characteristic's bin points (./fitted-table.ts), rounded and
 * clamped, then at most the recovery cap after a liquidation and the thin-history cap. `cards`
 * defaults to the fitted table; the model lab passes candidate tables while it fits.
 */
export function scoreWallet(features: WalletFeatures, cards: Scorecards = M.segments): ScoreResult {
  const f = validateFeatures(features);
  const segment = segmentOf(f);
  const factors = factorsOf(segment, f, cards);
  if (!hasActivity(f)) return { model: MODEL_ID, score: M.emptyScore, segment, factors, probability: 1 };
  const raw = cards[segment].base + factors.reduce((sum, x) => sum + x.scorePoints, 0);
  const probability = probabilityOf(raw);
  let score = clampScore(raw);
  const history = factors.find((x) => x.label === 'Borrowing History')!;
  const cap = recoveryCap(f);
  if (cap !== null && score > cap) {
    score = Math.max(SCORE_MIN, Math.floor(cap));
    history.reasons.push(
      `liquidated ${Math.floor(f.daysSinceLastLiquidation ?? 0)} days ago: the score is capped at ${score} while it recovers`,
    );
  }
  const newCredit = factors.find((x) => x.label === 'New Credit')!;
  if (isThin(f) && score > M.thin.maxScore) {
    score = M.thin.maxScore;
    newCredit.reasons.push(
      `too little history to score (${Math.floor(f.walletAgeDays)} days old, under ${M.thin.minAgeDays}): held at ${M.thin.maxScore}, even odds`,
    );
  }
  return { model: MODEL_ID, score: Math.min(SCORE_MAX, score), segment, factors, probability };
}
