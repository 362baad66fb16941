import { addDecimals, decimal, formatCents, formatDecimal, mulDecimals, roundTo, toCents, usdAmount } from '../src/decimal';

describe('exact decimals', () => {
  it('multiplies and adds without losing a digit', () => {
    // 12.345678 USDC at 1.00000000 USD
    const value = mulDecimals(decimal(12_345_678n, 6), decimal(100_000_000n, 8));
    expect(formatDecimal(value)).toBe('12.34567800000000');
    expect(formatDecimal(addDecimals(decimal(1n, 18), decimal(2n, 2)))).toBe('0.020000000000000001');
    expect(addDecimals()).toEqual(decimal(0n, 0));
  });

  it('rounds to cents half away from zero, once', () => {
    expect(toCents(decimal(12_345n, 3))).toBe(1235n);
    expect(toCents(decimal(12_344_999n, 6))).toBe(1234n);
    expect(toCents(decimal(-12_345n, 3))).toBe(-1235n);
    expect(roundTo(decimal(5n, 0), 2)).toEqual(decimal(500n, 2));
    // two dust amounts worth 0.00 each sum to 0.01
    const dust = decimal(4n, 3);
    expect(toCents(dust)).toBe(0n);
    expect(toCents(addDecimals(dust, dust))).toBe(1n);
  });

  it('formats cents and USD amounts', () => {
    expect(formatCents(0n)).toBe('0.00');
    expect(formatCents(5n)).toBe('0.05');
    expect(formatCents(123_456n)).toBe('1234.56');
    expect(formatCents(-5n)).toBe('-0.05');
    expect(usdAmount(decimal(3_000_00000000n, 8))).toEqual({ exact: decimal(3_000_00000000n, 8), cents: 300_000n, usd: '3000.00' });
  });
});
