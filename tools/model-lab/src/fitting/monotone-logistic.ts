/**
 * Logistic regression whose coefficients are all constrained to be ≤ 0 (the intercept is free),
 * with an L2 penalty, fitted by cyclic coordinate descent with a Newton step per coordinate.
 *
 * With columns that are cumulative bin indicators (x = 1 when the figure is in bin k or above), a
 * coefficient ≤ 0 says "a safer bin never has a higher log-odds of the outcome than the bin below
 * it": the monotone constraint of a scorecard, held exactly rather than checked afterwards.
 */
export interface MonotoneFit {
  intercept: number;
  /** One per column, each ≤ 0. */
  coefficients: number[];
  /** Mean log-loss on the fitted rows (without the penalty). */
  logLoss: number;
  sweeps: number;
}

export interface MonotoneOptions {
  /** L2 penalty on the coefficients (not the intercept), per row. */
  lambda: number;
  maxSweeps?: number;
  tolerance?: number;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** `columns[j][i]`: column j of row i (0 or 1 here, any number in general). */
export function fitMonotoneLogistic(columns: readonly Float64Array[], outcomes: readonly boolean[], options: MonotoneOptions): MonotoneFit {
  const n = outcomes.length;
  const y: number[] = outcomes.map((o) => (o ? 1 : 0));
  const rate = Math.min(1 - 1e-6, Math.max(1e-6, y.reduce((a, b) => a + b, 0) / n));
  let intercept = Math.log(rate / (1 - rate));
  const beta = columns.map(() => 0);
  const eta = new Float64Array(n).fill(intercept);
  const maxSweeps = options.maxSweeps ?? 500;
  const tolerance = options.tolerance ?? 1e-7;
  let sweeps = 0;
  for (; sweeps < maxSweeps; sweeps++) {
    let largest: number;
    {
      let g = 0;
      let h = 0;
      for (let i = 0; i < n; i++) {
        const p = sigmoid(eta[i]!);
        g += p - y[i]!;
        h += p * (1 - p);
      }
      const step = g / Math.max(h, 1e-12);
      intercept -= step;
      for (let i = 0; i < n; i++) eta[i]! -= step;
      largest = Math.abs(step);
    }
    for (let j = 0; j < columns.length; j++) {
      const x = columns[j]!;
      let g = 0;
      let h = 0;
      for (let i = 0; i < n; i++) {
        if (x[i] === 0) continue;
        const p = sigmoid(eta[i]!);
        g += (p - y[i]!) * x[i]!;
        h += p * (1 - p) * x[i]! * x[i]!;
      }
      g = g / n + options.lambda * beta[j]!;
      h = h / n + options.lambda;
      const next = Math.min(0, beta[j]! - g / h);
      const delta = next - beta[j]!;
      if (delta === 0) continue;
      beta[j] = next;
      for (let i = 0; i < n; i++) if (x[i] !== 0) eta[i]! += delta * x[i]!;
      largest = Math.max(largest, Math.abs(delta));
    }
    if (largest < tolerance) break;
  }
  let loss = 0;
  for (let i = 0; i < n; i++) {
    const p = Math.min(1 - 1e-12, Math.max(1e-12, sigmoid(eta[i]!)));
    loss -= y[i]! ? Math.log(p) : Math.log(1 - p);
  }
  return { intercept, coefficients: beta, logLoss: loss / n, sweeps };
}

/** The fitted probability of one row. */
export function predictMonotone(fit: MonotoneFit, row: readonly number[]): number {
  return sigmoid(fit.intercept + row.reduce((sum, x, j) => sum + x * fit.coefficients[j]!, 0));
}
