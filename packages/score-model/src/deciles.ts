import { assertScore } from './score-bands';

/**
 * The score's decile: its position in the model's reference population (DESIGN §2). A score below
 * the first cut-point is in decile 1; a score at or above cut-point k (and below k + 1) is in
 * decile k + 1; at or above the ninth, decile 10.
 *
 * Provisional calibration: these nine cut-points put a tenth of the *sandbox generator's* score
 * distribution in each decile (scripts/calibrate-deciles.js over 50,000 generated inputs
 * `calibration:0` … `calibration:49999`; test/deciles.spec.ts checks a fresh sample). The
 * andromeda_1.0 model issue recalibrates them on the devnet reference population and documents that
 * population beside the model.
 */
export const DECILE_CUT_POINTS: readonly number[] = [540, 588, 622, 652, 681, 708, 738, 774, 822];

export function decileOf(score: number): number {
  assertScore(score);
  let decile = 1;
  for (const cut of DECILE_CUT_POINTS) if (score >= cut) decile++;
  return decile;
}
