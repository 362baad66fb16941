/** The Kolmogorov–Smirnov separation of two risk distributions, with where it is reached. */
export interface KsResult {
  /** max over thresholds t of |F₊(t) − F₋(t)|, in [0, 1]. */
  statistic: number;
  /** A threshold t at which the maximum is reached: the split is risk ≤ t against risk > t. */
  threshold: number;
}

/**
 * Kolmogorov–Smirnov statistic between the risks of the positives and of the negatives: the largest
 * gap between their empirical distribution functions, max over t of |F₊(t) − F₋(t)| with
 * F(t) = share of the class with risk ≤ t. 1 = some threshold separates the classes perfectly,
 * 0 = identical empirical distributions.
 *
 * The gap is only measured between distinct risk values (after every wallet tied at a value has
 * been counted), so ties across classes never create a spurious gap. The first threshold reaching
 * the maximum is reported.
 *
 * Throws a RangeError when the lengths differ, a risk is not finite, or a class is empty.
 */
export function kolmogorovSmirnov(risks: readonly number[], positives: readonly boolean[]): KsResult {
  if (risks.length !== positives.length)
    throw new RangeError(`risks (${risks.length}) and outcomes (${positives.length}) differ in length`);
  for (const r of risks) if (!Number.isFinite(r)) throw new RangeError(`risk must be finite, got ${r}`);
  const nPos = positives.filter(Boolean).length;
  const nNeg = positives.length - nPos;
  if (nPos === 0 || nNeg === 0) throw new RangeError(`KS needs both outcomes: ${nPos} positive, ${nNeg} negative`);

  const order = risks.map((risk, i) => ({ risk, positive: positives[i]! })).sort((a, b) => a.risk - b.risk);
  let belowPos = 0;
  let belowNeg = 0;
  let best: KsResult = { statistic: 0, threshold: order[0]!.risk };
  for (let i = 0; i < order.length;) {
    const value = order[i]!.risk;
    for (; i < order.length && order[i]!.risk === value; i += 1) {
      if (order[i]!.positive) belowPos += 1;
      else belowNeg += 1;
    }
    const gap = Math.abs(belowPos / nPos - belowNeg / nNeg);
    if (gap > best.statistic) best = { statistic: gap, threshold: value };
  }
  return best;
}

/** The statistic alone of `kolmogorovSmirnov`. */
export const ksStatistic = (risks: readonly number[], positives: readonly boolean[]): number =>
  kolmogorovSmirnov(risks, positives).statistic;
