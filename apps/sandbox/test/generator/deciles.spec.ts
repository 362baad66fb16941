import { decileOf } from '@credit/score-model/deciles';
import { SANDBOX_DECILE_CUT_POINTS as DECILE_CUT_POINTS } from '../../src/generator/decile-cut-points';
import { sandboxScore } from '../../src/generator/profile';

describe('deciles', () => {
  it('has nine increasing cut-points inside 300..1000', () => {
    expect(DECILE_CUT_POINTS).toHaveLength(9);
    for (let i = 1; i < 9; i++) expect(DECILE_CUT_POINTS[i]!).toBeGreaterThan(DECILE_CUT_POINTS[i - 1]!);
    expect(DECILE_CUT_POINTS[0]!).toBeGreaterThan(300);
    expect(DECILE_CUT_POINTS[8]!).toBeLessThanOrEqual(1000);
  });

  it('maps the ends and the cut-points', () => {
    expect(decileOf(300, DECILE_CUT_POINTS)).toBe(1);
    expect(decileOf(1000, DECILE_CUT_POINTS)).toBe(10);
    DECILE_CUT_POINTS.forEach((cut, i) => {
      expect(decileOf(cut - 1, DECILE_CUT_POINTS)).toBe(i + 1);
      expect(decileOf(cut, DECILE_CUT_POINTS)).toBe(i + 2);
    });
  });

  it('is monotone', () => {
    for (let s = 301; s <= 1000; s++) expect(decileOf(s, DECILE_CUT_POINTS)).toBeGreaterThanOrEqual(decileOf(s - 1, DECILE_CUT_POINTS));
  });

  it('rejects an invalid score', () => {
    expect(() => decileOf(299, DECILE_CUT_POINTS)).toThrow(RangeError);
  });

  it('puts 10% ± 1.5% of a fresh sample of the sandbox distribution in each decile', () => {
    const size = 20_000;
    const counts = new Array<number>(10).fill(0);
    // Different keys from the calibration sample (scripts/calibrate-deciles.js uses `calibration:<i>`).
    for (let i = 0; i < size; i++) counts[decileOf(sandboxScore(`fresh-sample:${i}`), DECILE_CUT_POINTS) - 1]! += 1;
    for (const count of counts) {
      expect(count / size).toBeGreaterThanOrEqual(0.085);
      expect(count / size).toBeLessThanOrEqual(0.115);
    }
  });
});
