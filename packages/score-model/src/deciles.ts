import { assertScore } from './score-bands';

/**
 * The score's decile: its position in a reference population (docs/MODEL.md), given that population's
 * nine ascending cut-points. A score below the first cut-point is in decile 1; a score at or above
 * cut-point k (and below k + 1) is in decile k + 1; at or above the ninth, decile 10.
 *
 * Each model owns its table: andromeda_1.0's is `ANDROMEDA_1_0.decileCutPoints` (calibrated on the
 * devnet reference world, docs/MODEL.md); the sandbox's is `SANDBOX_DECILE_CUT_POINTS`.
 */
export function decileOf(score: number, cutPoints: readonly number[]): number {
  assertScore(score);
  let decile = 1;
  for (const cut of cutPoints) if (score >= cut) decile++;
  return decile;
}
