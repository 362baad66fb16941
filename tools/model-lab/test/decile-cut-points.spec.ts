import { decileCutPoints, decileUnder } from '../src/calibration/decile-cut-points';

describe('decileCutPoints', () => {
  it('puts exactly a tenth of a population of 100 distinct scores in each decile', () => {
    const scores = Array.from({ length: 100 }, (_, i) => 300 + 7 * i).reverse();
    const cuts = decileCutPoints(scores);
    expect(cuts).toEqual([370, 440, 510, 580, 650, 720, 790, 860, 930]);
    const counts = new Array<number>(10).fill(0);
    for (const s of scores) counts[decileUnder(cuts, s) - 1]! += 1;
    expect(counts).toEqual(new Array(10).fill(10));
  });

  it('gives each decile a tenth (±1) of a population not a multiple of ten', () => {
    const scores = Array.from({ length: 37 }, (_, i) => 400 + i * 3);
    const cuts = decileCutPoints(scores);
    const counts = new Array<number>(10).fill(0);
    for (const s of scores) counts[decileUnder(cuts, s) - 1]! += 1;
    for (const c of counts) expect(Math.abs(c - 3.7)).toBeLessThan(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(37);
  });

  it('is non-decreasing and repeats cut-points under ties', () => {
    const scores = [...new Array<number>(50).fill(600), ...Array.from({ length: 50 }, (_, i) => 700 + i)];
    const cuts = decileCutPoints(scores);
    expect(cuts.slice(0, 4)).toEqual([600, 600, 600, 600]);
    expect(cuts[4]).toBe(700);
    for (let i = 1; i < cuts.length; i += 1) expect(cuts[i]!).toBeGreaterThanOrEqual(cuts[i - 1]!);
  });

  it('rejects fewer than ten scores and non-finite scores', () => {
    expect(() => decileCutPoints([1, 2, 3])).toThrow(RangeError);
    expect(() => decileCutPoints([...new Array<number>(9).fill(500), Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});

describe('decileUnder', () => {
  it('follows decileOf: below the first cut-point is 1, at a cut-point moves up', () => {
    const cuts = [540, 588, 622, 652, 681, 708, 738, 774, 822];
    expect(decileUnder(cuts, 300)).toBe(1);
    expect(decileUnder(cuts, 539)).toBe(1);
    expect(decileUnder(cuts, 540)).toBe(2);
    expect(decileUnder(cuts, 822)).toBe(10);
    expect(decileUnder(cuts, 1000)).toBe(10);
  });
});
