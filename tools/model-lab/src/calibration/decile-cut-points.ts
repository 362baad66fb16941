/**
 * The nine cut-points that split a population's scores into ten deciles, each a tenth of the
 * population, in the convention of `@credit/score-model/deciles` (`decileOf`: below the first
 * cut-point → decile 1; at or above cut-point k and below k + 1 → decile k + 1).
 *
 * Cut-point k (k = 1..9) is the smallest score of decile k + 1 when the scores are sorted
 * ascending: the score at 0-based position ⌈k·n/10⌉, so decile 1 holds the lowest ⌈n/10⌉ scores
 * (exactly n/10 when n is a multiple of 10), and a wallet is in decile 1 + (number of cut-points
 * ≤ its score). Ties can make adjacent cut-points equal, and then the deciles they bound cannot
 * each hold a tenth; the cut-points are still non-decreasing.
 *
 * Throws a RangeError for fewer than 10 scores or a non-finite score.
 */
export function decileCutPoints(scores: readonly number[]): number[] {
  if (scores.length < 10) throw new RangeError(`need at least 10 scores for deciles, got ${scores.length}`);
  for (const s of scores) if (!Number.isFinite(s)) throw new RangeError(`score must be finite, got ${s}`);
  const sorted = [...scores].sort((a, b) => a - b);
  const n = sorted.length;
  return Array.from({ length: 9 }, (_, i) => sorted[Math.ceil(((i + 1) * n) / 10)]!);
}

/** Decile (1..10) of a score under the given cut-points: 1 + the number of cut-points ≤ the score. */
export function decileUnder(cutPoints: readonly number[], score: number): number {
  return 1 + cutPoints.filter((c) => c <= score).length;
}
