/**
 * Quantiles by linear interpolation between order statistics (the "type 7" rule, the default of
 * R and NumPy): with the n values sorted ascending, quantile q sits at 0-based position h = (n − 1)·q
 * and is x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋]). q = 0 is the minimum, q = 1 the maximum and
 * q = 0.5 the usual median.
 *
 * Throws a RangeError for an empty list, a non-finite value, or q outside [0, 1].
 */
export function quantile(xs: readonly number[], q: number): number {
  return quantileSorted(sortedCopy(xs), q);
}

/** `quantile` of values already sorted ascending (not checked), without copying them. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty list');
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile level must be in [0, 1], got ${q}`);
  const h = (sorted.length - 1) * q;
  const lower = Math.floor(h);
  const upper = Math.min(lower + 1, sorted.length - 1);
  const low = sorted[lower]!;
  return low + (h - lower) * (sorted[upper]! - low);
}

/** The usual description of a sample: median, 5th and 95th percentiles, extremes and mean. */
export interface Summary {
  median: number;
  p5: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

/** Median, 5th / 95th percentiles (as `quantile`), minimum, maximum and mean of a non-empty list. */
export function summary(xs: readonly number[]): Summary {
  const sorted = sortedCopy(xs);
  if (sorted.length === 0) throw new RangeError('summary of an empty list');
  return {
    median: quantileSorted(sorted, 0.5),
    p5: quantileSorted(sorted, 0.05),
    p95: quantileSorted(sorted, 0.95),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
  };
}

function sortedCopy(xs: readonly number[]): number[] {
  for (const x of xs) if (!Number.isFinite(x)) throw new RangeError(`value must be finite, got ${x}`);
  return [...xs].sort((a, b) => a - b);
}
