import { BOOST_ASSET_CAP_USD, boostOf, enhancedScore } from '../src/boost';

describe('enhanced-score boost (docs/MODEL.md, docs/API.md §4.1 rule 4)', () => {
  it('gives the example of docs/API.md §4.1 rule 4: 700 with 50,000 USD becomes 745', () => {
    expect(boostOf(700, 50_000)).toBe(45);
    expect(enhancedScore(700, 50_000)).toBe(745);
  });

  it('counts assets above the cap as the cap', () => {
    expect(enhancedScore(700, 1_000_000)).toBe(745);
    expect(boostOf(700, BOOST_ASSET_CAP_USD * 3)).toBe(boostOf(700, BOOST_ASSET_CAP_USD));
  });

  it('is proportional below the cap, rounded', () => {
    expect(boostOf(700, 25_000)).toBe(23); // 22.5 rounds up
    expect(boostOf(700, 10_000)).toBe(9);
    expect(boostOf(700, 0.01)).toBe(0);
  });

  it('adds nothing for 0 assets', () => {
    expect(boostOf(650, 0)).toBe(0);
    expect(enhancedScore(650, 0)).toBe(650);
  });

  it('keeps 1000 at 1000 and never exceeds it', () => {
    expect(enhancedScore(1000, 50_000)).toBe(1000);
    for (let score = 300; score <= 1000; score++) expect(enhancedScore(score, 1e9)).toBeLessThanOrEqual(1000);
  });

  it('boosts 300 with the cap by 15% of 700', () => {
    expect(enhancedScore(300, 50_000)).toBe(405);
  });

  it.each([-1, -0.01, Number.NaN, Number.POSITIVE_INFINITY])('rejects assets %p (callers validate first)', (assets) => {
    expect(() => boostOf(700, assets)).toThrow(RangeError);
  });

  it('rejects an invalid score', () => {
    expect(() => boostOf(1200, 10)).toThrow(RangeError);
  });
});
