import { SCORE_BANDS, assertScore, clampScore, isScore, rangeOf } from '../src/score-bands';

describe('score bands (docs/MODEL.md)', () => {
  it.each([
    [300, 'low'],
    [639, 'low'],
    [640, 'fair'],
    [749, 'fair'],
    [750, 'good'],
    [839, 'good'],
    [840, 'very_good'],
    [919, 'very_good'],
    [920, 'excellent'],
    [1000, 'excellent'],
  ] as const)('%i is %s', (score, range) => {
    expect(rangeOf(score)).toBe(range);
  });

  it('covers 300..1000 without gaps or overlaps', () => {
    expect(SCORE_BANDS[0]!.min).toBe(300);
    expect(SCORE_BANDS[SCORE_BANDS.length - 1]!.max).toBe(1000);
    for (let i = 1; i < SCORE_BANDS.length; i++) expect(SCORE_BANDS[i]!.min).toBe(SCORE_BANDS[i - 1]!.max + 1);
  });

  it.each([299, 1001, 700.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects %p', (score) => {
    expect(isScore(score)).toBe(false);
    expect(() => rangeOf(score)).toThrow(RangeError);
    expect(() => assertScore(score)).toThrow(RangeError);
  });

  it('clamps and rounds into 300..1000', () => {
    expect(clampScore(-5)).toBe(300);
    expect(clampScore(299.6)).toBe(300);
    expect(clampScore(700.5)).toBe(701);
    expect(clampScore(1000.4)).toBe(1000);
    expect(clampScore(5000)).toBe(1000);
    expect(() => clampScore(Number.NaN)).toThrow(RangeError);
  });
});
