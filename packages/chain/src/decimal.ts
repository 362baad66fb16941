/**
 * Exact decimal numbers on bigint: `value / 10^scale`. Token amounts, feed answers and their
 * products are exact; rounding happens once, at the edge (`toCents`).
 */
export interface Decimal {
  readonly value: bigint;
  readonly scale: number;
}

export const decimal = (value: bigint, scale: number): Decimal => ({ value, scale });

const pow10 = (n: number) => 10n ** BigInt(n);

function rescale(d: Decimal, scale: number): Decimal {
  if (scale < d.scale) throw new RangeError('rescale would lose digits; use toCents / roundTo');
  return decimal(d.value * pow10(scale - d.scale), scale);
}

export function addDecimals(...terms: readonly Decimal[]): Decimal {
  const scale = Math.max(0, ...terms.map((t) => t.scale));
  return decimal(
    terms.reduce((sum, t) => sum + rescale(t, scale).value, 0n),
    scale,
  );
}

export function mulDecimals(a: Decimal, b: Decimal): Decimal {
  return decimal(a.value * b.value, a.scale + b.scale);
}

/** Rounds to `scale` digits, half away from zero. */
export function roundTo(d: Decimal, scale: number): Decimal {
  if (d.scale <= scale) return rescale(d, scale);
  const divisor = pow10(d.scale - scale);
  const negative = d.value < 0n;
  const abs = negative ? -d.value : d.value;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return decimal(negative ? -q : q, scale);
}

/** Whole cents, half away from zero. */
export const toCents = (d: Decimal): bigint => roundTo(d, 2).value;

/** Plain decimal text with exactly `scale` fraction digits ("1234.50"). */
export function formatDecimal(d: Decimal): string {
  const negative = d.value < 0n;
  const digits = (negative ? -d.value : d.value).toString().padStart(d.scale + 1, '0');
  const whole = digits.slice(0, digits.length - d.scale);
  const fraction = digits.slice(digits.length - d.scale);
  return `${negative ? '-' : ''}${whole}${d.scale > 0 ? `.${fraction}` : ''}`;
}

/** Cents as dollars text ("1234.56"). */
export const formatCents = (cents: bigint): string => formatDecimal(decimal(cents, 2));

/** A USD amount at the edge: exact value, whole cents, and their text. */
export interface UsdAmount {
  exact: Decimal;
  cents: bigint;
  /** Dollars with two decimals, e.g. "1234.56". */
  usd: string;
}

export function usdAmount(exact: Decimal): UsdAmount {
  const cents = toCents(exact);
  return { exact, cents, usd: formatCents(cents) };
}
