import { cents, sumUsd, usd } from '@credit/contracts/usd';

describe('money in cents', () => {
  it('adds in cents, exactly', () => {
    expect(sumUsd([0.1, 0.2])).toBe(0.3);
    expect(sumUsd([1234.56, 0.44, 0.001])).toBe(1235);
    expect(sumUsd([])).toBe(0);
  });

  it('converts both ways', () => {
    expect(cents(12.345)).toBe(1235);
    expect(usd(1235)).toBe(12.35);
    expect(() => usd(1.5)).toThrow(RangeError);
    expect(() => cents(Number.NaN)).toThrow(RangeError);
  });

  it('still returns a sum for absurdly large amounts', () => {
    expect(sumUsd([1e15, 1e15])).toBe(2e15);
  });
});
