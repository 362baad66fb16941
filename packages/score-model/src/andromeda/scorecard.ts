import type { FactorLabel } from '@credit/contracts/schemas/score';
import { SCORE_MAX, SCORE_MIN, clampScore } from '../score-bands';
import { validateFeatures, type WalletFeatures } from './features';
import {
  FACTOR_ORDER,
  borrowingHistory,
  evidenceOf,
  interactions,
  newCredit,
  trust,
  walletComposition,
  walletHealth,
  type FactorResult,
} from './factors';
import { ANDROMEDA_1_0, MODEL_ID } from './model-table';

const M = ANDROMEDA_1_0;

export interface ScoreResult {
  model: typeof MODEL_ID;
  /** Integer in 300..1000. */
  score: number;
  /** One per factor, in the order of `FACTOR_ORDER`. */
  factors: FactorResult[];
  /** 0..1: how much of the score's distance above the prior the evidence supports. */
  confidence: number;
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

/**
 * andromeda_1.0: features → an integer score in 300..1000 with its six factors and their reasons.
 * Pure and deterministic. Throws a RangeError for invalid features (see `validateFeatures`).
 *
 * score = 300 + 7 × Σ weight × points (points rounded per factor, so a reader can recompute it
 * from the factors), then the thin-history hold above the prior, rounded and clamped.
 */
export function scoreWallet(features: WalletFeatures): ScoreResult {
  const f = validateFeatures(features);
  const t = M.thinHistory;
  const confidence = Math.min(1, f.walletAgeDays / t.fullAgeDays) * Math.min(1, evidenceOf(f) / t.fullEvidence);
  const byLabel: Record<FactorLabel, FactorResult> = {
    'Borrowing History': borrowingHistory(f),
    'Wallet Composition': walletComposition(f),
    'Wallet Health': walletHealth(f),
    Interactions: interactions(f),
    Trust: trust(f),
    'New Credit': newCredit(f, confidence),
  };
  const factors = FACTOR_ORDER.map((label) => byLabel[label]);
  if (!hasActivity(f)) {
    return { model: MODEL_ID, score: M.emptyScore, factors, confidence: 0 };
  }
  return { model: MODEL_ID, score: combineFactors(factors, confidence), factors, confidence };
}

/**
 * The score from the factors' points: 300 + 7 × Σ weight × points, then the thin-history hold above
 * the prior, rounded and clamped. `weights` default to the table's; the evaluation's ablations pass
 * others (a factor left out, the rest renormalised).
 */
export function combineFactors(
  factors: readonly Pick<FactorResult, 'label' | 'points'>[],
  confidence: number,
  weights: Readonly<Record<FactorLabel, number>> = M.weights,
): number {
  const t = M.thinHistory;
  const weighted = factors.reduce((sum, x) => sum + weights[x.label] * x.points, 0);
  const raw = SCORE_MIN + ((SCORE_MAX - SCORE_MIN) / 100) * weighted;
  const held = raw > t.prior ? t.prior + confidence * (raw - t.prior) : raw;
  return clampScore(held);
}
