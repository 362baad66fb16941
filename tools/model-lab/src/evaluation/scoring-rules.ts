/**
 * Proper scoring rules for probability forecasts of a yes/no outcome (e.g. "this wallet defaults"):
 * lower is better for both, and both are minimised in expectation by the true probability.
 */

/**
 * Brier score: the mean of (p − y)², y = 1 for true and 0 for false. 0 = every forecast certain
 * and right, 0.25 = always 0.5, 1 = every forecast certain and wrong.
 *
 * Throws a RangeError when the lengths differ, the lists are empty, or a p is outside [0, 1].
 */
export function brierScore(probabilities: readonly number[], outcomes: readonly boolean[]): number {
  checkForecasts(probabilities, outcomes);
  let sum = 0;
  for (let i = 0; i < probabilities.length; i += 1) sum += (probabilities[i]! - (outcomes[i] ? 1 : 0)) ** 2;
  return sum / probabilities.length;
}

/**
 * Log loss (cross-entropy, in nats): the mean of −ln p for true outcomes and −ln(1 − p) for false
 * ones. A constant forecast at the base rate π scores the outcomes' entropy,
 * −π ln π − (1 − π) ln(1 − π); a useful model scores less. Probabilities are clipped to
 * [1e-15, 1 − 1e-15] so a certain, wrong forecast costs about 34.5 rather than infinity.
 *
 * Throws a RangeError as `brierScore`.
 */
export function logLoss(probabilities: readonly number[], outcomes: readonly boolean[]): number {
  checkForecasts(probabilities, outcomes);
  const eps = 1e-15;
  let sum = 0;
  for (let i = 0; i < probabilities.length; i += 1) {
    const p = Math.min(1 - eps, Math.max(eps, probabilities[i]!));
    sum -= Math.log(outcomes[i] ? p : 1 - p);
  }
  return sum / probabilities.length;
}

function checkForecasts(probabilities: readonly number[], outcomes: readonly boolean[]): void {
  if (probabilities.length !== outcomes.length)
    throw new RangeError(`probabilities (${probabilities.length}) and outcomes (${outcomes.length}) differ in length`);
  if (probabilities.length === 0) throw new RangeError('no forecasts to score');
  for (const p of probabilities) if (!(p >= 0 && p <= 1)) throw new RangeError(`probability must be in [0, 1], got ${p}`);
}
