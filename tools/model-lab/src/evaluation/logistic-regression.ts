import { choleskySolve } from './cholesky-solve';

/**
 * A fitted L2-regularised logistic regression. The features are standardised with the training
 * data's means and standard deviations before the linear predictor is formed, and those are kept
 * here so that `predictLogistic` applies the same transformation to new rows.
 */
export interface LogisticModel {
  /** Per feature: the training mean. */
  means: number[];
  /** Per feature: the training standard deviation (population, ÷ n); 0 = constant column, ignored. */
  sds: number[];
  /** Intercept on the standardised scale (the log-odds of a row at the training means). */
  intercept: number;
  /** Per feature: the coefficient of the standardised feature (0 for a constant column). */
  weights: number[];
  /** The penalty the model was fitted with. */
  l2: number;
  /** Newton iterations run, and whether the steps had become negligible before the limit. */
  iterations: number;
  converged: boolean;
}

/** Options of `fitLogistic`. */
export interface LogisticOptions {
  /**
   * Strength of the L2 penalty (l2/2)·Σ wⱼ² added to the MEAN log loss, on the standardised
   * weights; the intercept is not penalised. Default 1e-3. 0 is allowed (plain maximum
   * likelihood; the weights then grow without bound on separable data, up to `iterations`).
   */
  l2?: number;
  /** Maximum number of Newton steps (default 100; it usually converges in fewer than 10). */
  iterations?: number;
  /** Stop when no parameter moves by more than this in a step (default 1e-10). */
  tolerance?: number;
}

/** Intercept and coefficients of a fitted model in the features' own units. */
export interface LogisticCoefficients {
  intercept: number;
  coefficients: number[];
}

/**
 * Fits P(y = true | x) = σ(b + Σⱼ wⱼ·zⱼ), zⱼ = (xⱼ − meanⱼ) / sdⱼ, by minimising
 * (1/n)·Σ log-loss + (l2/2)·Σ wⱼ² with Newton's method (iteratively reweighted least squares),
 * halving a step that would not lower the objective. Starts from all weights 0 and the intercept
 * at the log-odds of the base rate, so the fit is deterministic.
 *
 * A column whose standard deviation is 0 (or negligible next to its values) carries no
 * information: its sd is stored as 0, its weight stays 0 and it is ignored in prediction.
 *
 * Throws a RangeError when there are no rows, rows differ in length, a value is not finite, the
 * outcomes do not match the rows, or only one outcome occurs (the intercept would be infinite).
 */
export function fitLogistic(x: readonly (readonly number[])[], y: readonly boolean[], options: LogisticOptions = {}): LogisticModel {
  const { l2 = 1e-3, iterations = 100, tolerance = 1e-10 } = options;
  if (!(l2 >= 0)) throw new RangeError(`l2 must be ≥ 0, got ${l2}`);
  if (!Number.isInteger(iterations) || iterations < 0) throw new RangeError(`iterations must be a whole number, got ${iterations}`);
  const n = x.length;
  if (n === 0) throw new RangeError('logistic regression needs at least one row');
  if (y.length !== n) throw new RangeError(`rows (${n}) and outcomes (${y.length}) differ in length`);
  const d = x[0]!.length;
  for (const row of x) {
    if (row.length !== d) throw new RangeError(`every row needs ${d} features, got ${row.length}`);
    for (const v of row) if (!Number.isFinite(v)) throw new RangeError(`feature must be finite, got ${v}`);
  }
  const positives = y.filter(Boolean).length;
  if (positives === 0 || positives === n) throw new RangeError(`logistic regression needs both outcomes: ${positives} of ${n} positive`);

  const { means, sds } = standardisation(x);
  const active = sds.flatMap((sd, j) => (sd > 0 ? [j] : []));
  // Design matrix: a leading 1 for the intercept, then the standardised active features.
  const z = x.map((row) => [1, ...active.map((j) => (row[j]! - means[j]!) / sds[j]!)]);
  const target = y.map((v) => (v ? 1 : 0));
  const m = active.length + 1;

  const objective = (beta: readonly number[]): number => {
    let loss = 0;
    for (let i = 0; i < n; i += 1) {
      const eta = dot(beta, z[i]!);
      loss += softplus(eta) - target[i]! * eta;
    }
    let penalty = 0;
    for (let j = 1; j < m; j += 1) penalty += beta[j]! * beta[j]!;
    return loss / n + (l2 / 2) * penalty;
  };

  let beta = new Array<number>(m).fill(0);
  beta[0] = Math.log(positives / (n - positives));
  let current = objective(beta);
  let used = 0;
  let converged = false;
  while (used < iterations && !converged) {
    used += 1;
    const gradient = new Array<number>(m).fill(0);
    const hessian = Array.from({ length: m }, () => new Array<number>(m).fill(0));
    for (let i = 0; i < n; i += 1) {
      const row = z[i]!;
      const p = sigmoid(dot(beta, row));
      const residual = p - target[i]!;
      const weight = p * (1 - p);
      for (let a = 0; a < m; a += 1) {
        gradient[a]! += residual * row[a]!;
        const wa = weight * row[a]!;
        const ha = hessian[a]!;
        for (let b = 0; b <= a; b += 1) ha[b]! += wa * row[b]!;
      }
    }
    for (let a = 0; a < m; a += 1) {
      gradient[a]! /= n;
      for (let b = 0; b <= a; b += 1) hessian[a]![b]! /= n;
      if (a > 0) {
        gradient[a]! += l2 * beta[a]!;
        hessian[a]![a]! += l2;
      }
      for (let b = 0; b < a; b += 1) hessian[b]![a] = hessian[a]![b]!;
    }

    const step = choleskySolve(hessian, gradient);
    let scale = 1;
    let next = beta.map((v, j) => v - step[j]!);
    let value = objective(next);
    while (!(value <= current) && scale > 1e-10) {
      scale /= 2;
      next = beta.map((v, j) => v - scale * step[j]!);
      value = objective(next);
    }
    if (!(value <= current)) {
      converged = true; // no step along the Newton direction lowers the objective: at the optimum to rounding
      break;
    }
    const moved = Math.max(...next.map((v, j) => Math.abs(v - beta[j]!)));
    beta = next;
    current = value;
    if (moved <= tolerance) converged = true;
  }

  const weights = new Array<number>(d).fill(0);
  active.forEach((j, k) => (weights[j] = beta[k + 1]!));
  return { means, sds, intercept: beta[0]!, weights, l2, iterations: used, converged };
}

/** P(y = true) for one row of features under a fitted model (the row as given to `fitLogistic`). */
export function predictLogistic(model: LogisticModel, x: readonly number[]): number {
  if (x.length !== model.weights.length) throw new RangeError(`the model needs ${model.weights.length} features, got ${x.length}`);
  let eta = model.intercept;
  for (let j = 0; j < x.length; j += 1) {
    const sd = model.sds[j]!;
    if (sd > 0) eta += (model.weights[j]! * (x[j]! - model.means[j]!)) / sd;
  }
  return sigmoid(eta);
}

/**
 * The fitted model's intercept and coefficients in the features' own units: the log-odds change
 * per unit of each raw feature (wⱼ / sdⱼ; 0 for a constant column) and the log-odds at all
 * features 0. These are what a model P = σ(β₀ + Σ βⱼ·xⱼ) would be written with.
 */
export function logisticCoefficients(model: LogisticModel): LogisticCoefficients {
  const coefficients = model.weights.map((w, j) => (model.sds[j]! > 0 ? w / model.sds[j]! : 0));
  const intercept = coefficients.reduce((sum, c, j) => sum - c * model.means[j]!, model.intercept);
  return { intercept, coefficients };
}

/** Column means and population standard deviations; a negligible sd (constant column) becomes 0. */
function standardisation(x: readonly (readonly number[])[]): { means: number[]; sds: number[] } {
  const n = x.length;
  const d = x[0]!.length;
  const means = new Array<number>(d).fill(0);
  const sds = new Array<number>(d).fill(0);
  for (let j = 0; j < d; j += 1) {
    let sum = 0;
    let largest = 0;
    for (const row of x) {
      sum += row[j]!;
      largest = Math.max(largest, Math.abs(row[j]!));
    }
    const mean = sum / n;
    let squares = 0;
    for (const row of x) squares += (row[j]! - mean) ** 2;
    const sd = Math.sqrt(squares / n);
    means[j] = mean;
    sds[j] = sd > 1e-10 * largest ? sd : 0;
  }
  return { means, sds };
}

/** The logistic function, without overflow for large |t|. */
function sigmoid(t: number): number {
  if (t >= 0) return 1 / (1 + Math.exp(-t));
  const e = Math.exp(t);
  return e / (1 + e);
}

/** log(1 + eᵗ), without overflow for large t. */
function softplus(t: number): number {
  return Math.max(t, 0) + Math.log1p(Math.exp(-Math.abs(t)));
}

function dot(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i += 1) s += a[i]! * b[i]!;
  return s;
}
