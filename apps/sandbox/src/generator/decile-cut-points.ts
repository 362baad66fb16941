/**
 * The sandbox's decile table: nine cut-points that put a tenth of the sandbox generator's score
 * distribution in each decile (50,000 generated inputs `calibration:0` … `calibration:49999`;
 * test/deciles.spec.ts checks a fresh sample). Mock scores get mock deciles; production scores use
 * andromeda_1.0's own table.
 */
export const SANDBOX_DECILE_CUT_POINTS: readonly number[] = [540, 588, 622, 652, 681, 708, 738, 774, 822];
