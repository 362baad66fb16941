import { decileUnder } from '../calibration/decile-cut-points';
import { brierScore } from './scoring-rules';

/** A wallet's score, the probability its score states, and whether it was liquidated. */
export interface ScoredOutcome {
  score: number;
  probability: number;
  outcome: boolean;
}

/** One decile: the probability the model states for it beside the rate observed on held-out wallets. */
export interface DecileRow {
  decile: number;
  /** The stated probability (the table's `decileRates`). */
  stated: number;
  count: number;
  liquidated: number;
  observed: number | null;
  /** Wilson 95 % interval of the observed rate. */
  low: number | null;
  high: number | null;
  /** The stated probability lies in the interval (judged only with at least `MIN_JUDGED` wallets). */
  within: boolean | null;
  /** Share of the held-out wallets in the decile, and of the training wallets. */
  share: number;
  trainingShare: number;
}

export interface DecileCalibration {
  rows: DecileRow[];
  /** Every decile with at least `MIN_JUDGED` wallets has its stated probability inside its interval. */
  allWithin: boolean;
  /** Observed rates never rise from a decile to the next (a higher decile is never riskier). */
  monotone: boolean;
  /** Brier score of each wallet's stated probability (from its score), of the base rate, and the skill 1 − ratio. */
  brier: number;
  brierBaseRate: number;
  brierSkill: number;
  /** Population stability index of decile occupancy, held out against training at T. */
  psi: number;
}

/** Deciles with fewer held-out wallets than this are shown, not judged. */
export const MIN_JUDGED = 50;

/** The Wilson score interval of k successes in n at 95 %. */
export function wilson(k: number, n: number): [number, number] {
  const z = 1.959964;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Population stability index of two distributions over the same bins (shares floored at 0.0001). */
export function psi(actual: readonly number[], expected: readonly number[]): number {
  return actual.reduce((sum, a, i) => {
    const x = Math.max(a, 1e-4);
    const e = Math.max(expected[i]!, 1e-4);
    return sum + (x - e) * Math.log(x / e);
  }, 0);
}

/**
 * The model's deciles judged on held-out wallets: each decile's stated probability against its
 * observed rate and interval, monotonicity of the observed rates, Brier skill over the base rate,
 * and the stability of decile occupancy against the training population at T.
 */
export function decileCalibration(
  training: readonly Pick<ScoredOutcome, 'score'>[],
  heldOut: readonly ScoredOutcome[],
  cutPoints: readonly number[],
  stated: readonly number[],
): DecileCalibration {
  const counts = (rows: readonly Pick<ScoredOutcome, 'score'>[]) => {
    const c = new Array<number>(10).fill(0);
    for (const r of rows) c[decileUnder(cutPoints, r.score) - 1]! += 1;
    return c.map((x) => x / Math.max(1, rows.length));
  };
  const trainingShares = counts(training);
  const heldOutShares = counts(heldOut);
  const rows = stated.map((p, k): DecileRow => {
    const mine = heldOut.filter((r) => decileUnder(cutPoints, r.score) === k + 1);
    const liquidated = mine.filter((r) => r.outcome).length;
    const [low, high] = mine.length > 0 ? wilson(liquidated, mine.length) : [null, null];
    return {
      decile: k + 1,
      stated: p,
      count: mine.length,
      liquidated,
      observed: mine.length > 0 ? liquidated / mine.length : null,
      low,
      high,
      within: mine.length >= MIN_JUDGED ? p >= low! && p <= high! : null,
      share: heldOutShares[k]!,
      trainingShare: trainingShares[k]!,
    };
  });
  const observed = rows.filter((r) => r.count >= MIN_JUDGED).map((r) => r.observed!);
  const outcomes = heldOut.map((r) => r.outcome);
  const base = outcomes.filter(Boolean).length / Math.max(1, outcomes.length);
  const brier = brierScore(
    heldOut.map((r) => r.probability),
    outcomes,
  );
  const brierBaseRate = brierScore(
    heldOut.map(() => base),
    outcomes,
  );
  return {
    rows,
    allWithin: rows.every((r) => r.within !== false),
    monotone: observed.every((x, i) => i === 0 || x <= observed[i - 1]! + 1e-12),
    brier,
    brierBaseRate,
    brierSkill: brierBaseRate > 0 ? 1 - brier / brierBaseRate : 0,
    psi: psi(heldOutShares, trainingShares),
  };
}
