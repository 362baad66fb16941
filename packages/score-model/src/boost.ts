import { SCORE_MAX, assertScore } from './score-bands';

/** docs/MODEL.md / docs/API.md §4.1 rule 4: at most 15% of the distance to 1000 … */
export const BOOST_PERCENT = 15;
/** … reached when the off-chain assets reach this cap (USD); assets above it count as the cap. */
export const BOOST_ASSET_CAP_USD = 50_000;

/**
 * The boost that off-chain assets add to a score:
 * round(0.15 × (1000 − score) × min(assets, 50000) / 50000), computed as
 * round(15 × (1000 − score) × min(assets, 50000) / 5,000,000) so that the example of docs/API.md §4.1 rule 4 is exact
 * in floating point (700 with 50,000 USD → 45).
 *
 * Callers validate their input first (the request schemas reject negative numbers); a negative,
 * NaN or infinite amount here is a bug and throws a RangeError.
 */
export function boostOf(score: number, assetsUsd: number): number {
  assertScore(score);
  if (!Number.isFinite(assetsUsd) || assetsUsd < 0) {
    throw new RangeError(`off-chain assets must be a finite non-negative number, got ${String(assetsUsd)}`);
  }
  const counted = Math.min(assetsUsd, BOOST_ASSET_CAP_USD);
  return Math.round((BOOST_PERCENT * (SCORE_MAX - score) * counted) / (100 * BOOST_ASSET_CAP_USD));
}

/** The enhanced score: the score plus its boost, never above 1000. */
export function enhancedScore(score: number, assetsUsd: number): number {
  return Math.min(SCORE_MAX, score + boostOf(score, assetsUsd));
}
