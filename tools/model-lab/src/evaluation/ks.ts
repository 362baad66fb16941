import { rankByRisk } from '../calibration/risk-ranking';

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
  const { nPos, nNeg, groups } = rankByRisk(risks, positives, 'KS');
  let belowPos = 0;
  let belowNeg = 0;
  let best: KsResult = { statistic: 0, threshold: groups[0]!.risk };
  for (const g of groups) {
    belowPos += g.positives;
    belowNeg += g.negatives;
    const gap = Math.abs(belowPos / nPos - belowNeg / nNeg);
    if (gap > best.statistic) best = { statistic: gap, threshold: g.risk };
  }
  return best;
}

/** The statistic alone of `kolmogorovSmirnov`. */
export const ksStatistic = (risks: readonly number[], positives: readonly boolean[]): number =>
  kolmogorovSmirnov(risks, positives).statistic;
