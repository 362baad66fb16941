/**
 * Money on the wire is counted in integer cents and shown as USD numbers with at most two
 * decimals; every total is a sum of cents, so it equals the sum of its parts exactly (the sandbox
 * and the reports both add this way).
 */
export function usd(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  return cents / 100;
}

/** A USD amount to the nearest cent (half away from zero is irrelevant here: amounts are ≥ 0). */
export function cents(amountUsd: number): number {
  if (!Number.isFinite(amountUsd)) throw new RangeError(`amount must be finite, got ${amountUsd}`);
  return Math.round(amountUsd * 100);
}

/**
 * Adds USD amounts in cents: sumUsd([0.1, 0.2]) === 0.3. (Past 2^53 cents, about 90 trillion USD,
 * cents stop being exact; the sum is still returned, to the nearest representable value.)
 */
export function sumUsd(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) total += cents(amount);
  return total / 100;
}
