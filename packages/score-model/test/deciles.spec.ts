import { DECILE_CUT_POINTS, decileOf } from '../src/deciles';
import { sandboxScore } from '../src/sandbox/profile';

describe('deciles', () => {
  it('has nine increasing cut-points inside 300..1000', () => {
    expect(DECILE_CUT_POINTS).toHaveLength(9);
    for (let i = 1; i < 9; i++) expect(DECILE_CUT_POINTS[i]!).toBeGreaterThan(DECILE_CUT_POINTS[i - 1]!);
    expect(DECILE_CUT_POINTS[0]!).toBeGreaterThan(300);
    expect(DECILE_CUT_POINTS[8]!).toBeLessThanOrEqual(1000);
  });

  it('maps the ends and the cut-points', () => {
    expect(decileOf(300)).toBe(1);
    expect(decileOf(1000)).toBe(10);
    DECILE_CUT_POINTS.forEach((cut, i) => {
      expect(decileOf(cut - 1)).toBe(i + 1);
      expect(decileOf(cut)).toBe(i + 2);
    });
  });

  it('is monotone', () => {
    for (let s = 301; s <= 1000; s++) expect(decileOf(s)).toBeGreaterThanOrEqual(decileOf(s - 1));
  });

  it('rejects an invalid score', () => {
    expect(() => decileOf(299)).toThrow(RangeError);
  });

  it('puts 10% ± 1.5% of a fresh sample of the sandbox distribution in each decile', () => {
    const size = 20_000;
    const counts = new Array<number>(10).fill(0);
    // Different keys from the calibration sample (scripts/calibrate-deciles.js uses `calibration:<i>`).
    for (let i = 0; i < size; i++) counts[decileOf(sandboxScore(`fresh-sample:${i}`)) - 1]! += 1;
    for (const count of counts) {
      expect(count / size).toBeGreaterThanOrEqual(0.085);
      expect(count / size).toBeLessThanOrEqual(0.115);
    }
  });
});
