import { aucMannWhitney, scoreRisk } from '../src/calibration/auc';

/** The definition, by brute force over every (positive, negative) pair. */
function pairwiseAuc(risks: number[], positives: boolean[]): number {
  let wins = 0;
  let pairs = 0;
  risks.forEach((rp, i) => {
    if (!positives[i]) return;
    risks.forEach((rn, j) => {
      if (positives[j]) return;
      pairs += 1;
      wins += rp > rn ? 1 : rp === rn ? 0.5 : 0;
    });
  });
  return wins / pairs;
}

describe('aucMannWhitney', () => {
  it('is 1 for a perfect ranking, 0 for a reversed one and 0.5 when every risk ties', () => {
    expect(aucMannWhitney([1, 2, 3, 4], [false, false, true, true])).toBe(1);
    expect(aucMannWhitney([1, 2, 3, 4], [true, true, false, false])).toBe(0);
    expect(aucMannWhitney([5, 5, 5, 5], [true, false, true, false])).toBe(0.5);
  });

  it('counts ties between classes as one half', () => {
    // positive 2 vs negatives 1, 2, 3: 1 + 0.5 + 0 = 1.5 of 3
    expect(aucMannWhitney([1, 2, 2, 3], [false, true, false, false])).toBeCloseTo(0.5);
    // positives 3, 3 vs negatives 1, 3: (1 + .5) * 2 / 4
    expect(aucMannWhitney([3, 1, 3, 3], [true, false, true, false])).toBeCloseTo(0.75);
  });

  it('agrees with the pairwise definition on a pseudo-random sample with ties', () => {
    let x = 12345;
    const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
    const risks = Array.from({ length: 200 }, () => Math.floor(next() * 30));
    const positives = risks.map((r) => next() < 0.1 + r / 40);
    expect(aucMannWhitney(risks, positives)).toBeCloseTo(pairwiseAuc(risks, positives), 12);
  });

  it('does not depend on the order of the input', () => {
    const risks = [3, 9, 1, 7, 7, 2];
    const positives = [false, true, false, true, false, false];
    const reversed = aucMannWhitney([...risks].reverse(), [...positives].reverse());
    expect(aucMannWhitney(risks, positives)).toBeCloseTo(reversed, 12);
  });

  it('rejects an undefined AUC and bad input', () => {
    expect(() => aucMannWhitney([1, 2], [true, true])).toThrow(RangeError);
    expect(() => aucMannWhitney([1, 2], [false, false])).toThrow(RangeError);
    expect(() => aucMannWhitney([1], [true, false])).toThrow(RangeError);
    expect(() => aucMannWhitney([1, Number.NaN], [true, false])).toThrow(RangeError);
  });

  it('ranks by 1000 − score: lower scores of the liquidated wallets give a high AUC', () => {
    const scores = [820, 760, 700, 450, 520];
    const liquidated = [false, false, false, true, true];
    expect(aucMannWhitney(scores.map(scoreRisk), liquidated)).toBe(1);
  });
});
