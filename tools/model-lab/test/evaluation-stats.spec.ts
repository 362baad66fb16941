import { aucMannWhitney, scoreRisk } from '../src/calibration/auc';
import { bootstrapAuc, bootstrapAucByGroup, type GroupedOutcome } from '../src/evaluation/bootstrap';
import { kolmogorovSmirnov, ksStatistic } from '../src/evaluation/ks';
import { fitLogistic, logisticCoefficients, predictLogistic } from '../src/evaluation/logistic-regression';
import { quantile, summary } from '../src/evaluation/quantiles';
import { brierScore, logLoss } from '../src/evaluation/scoring-rules';
import { randomInt, seededRandom, standardNormal, type Random } from '../src/evaluation/seeded-random';

const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));

/** Wallets whose risk is standard normal and whose default probability rises with it. */
function syntheticWallets(n: number, seed: string): { risks: number[]; outcomes: boolean[] } {
  const random = seededRandom(seed);
  const risks = Array.from({ length: n }, () => standardNormal(random));
  const outcomes = risks.map((r) => random() < sigmoid(-1 + 1.2 * r));
  return { risks, outcomes };
}

/** KS by its definition: the largest gap of the two empirical CDFs over every observed threshold. */
function bruteForceKs(risks: number[], positives: boolean[]): number {
  const pos = risks.filter((_, i) => positives[i]);
  const neg = risks.filter((_, i) => !positives[i]);
  let best = 0;
  for (const t of risks) {
    const gap = Math.abs(pos.filter((r) => r <= t).length / pos.length - neg.filter((r) => r <= t).length / neg.length);
    best = Math.max(best, gap);
  }
  return best;
}

describe('seededRandom', () => {
  it('repeats its sequence for a seed, differs between seeds, and stays in [0, 1)', () => {
    const a = seededRandom('world-7');
    const b = seededRandom('world-7');
    const c = seededRandom('world-8');
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 1000 }, () => c())).not.toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
  });

  it('draws integers over the whole range and roughly standard normals', () => {
    const random = seededRandom(42);
    const seen = new Set(Array.from({ length: 500 }, () => randomInt(random, 10)));
    expect([...seen].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const zs = Array.from({ length: 20000 }, () => standardNormal(random));
    const s = summary(zs);
    expect(Math.abs(s.mean)).toBeLessThan(0.03);
    expect(s.p95).toBeCloseTo(1.645, 1);
  });
});

describe('quantile and summary', () => {
  const xs = [3, 1, 4, 1, 5, 9, 2, 6]; // sorted: 1 1 2 3 4 5 6 9

  it('interpolates linearly between order statistics at (n − 1)·q', () => {
    expect(quantile(xs, 0)).toBe(1);
    expect(quantile(xs, 1)).toBe(9);
    expect(quantile(xs, 0.5)).toBeCloseTo(3.5, 12); // h = 3.5: between 3 and 4
    expect(quantile(xs, 0.25)).toBeCloseTo(1.75, 12); // h = 1.75: 1 + 0.75·(2 − 1)
    expect(quantile(xs, 0.9)).toBeCloseTo(6.9, 12); // h = 6.3: 6 + 0.3·(9 − 6)
    expect(quantile([7], 0.3)).toBe(7);
    expect(quantile([10, 20], 0.5)).toBe(15);
  });

  it('summarises a sample and leaves the input unsorted', () => {
    const copy = [...xs];
    expect(summary(xs)).toEqual({
      median: 3.5,
      p5: 1, // h = 0.35 between 1 and 1
      p95: expect.closeTo(7.95, 12), // h = 6.65: 6 + 0.65·3
      min: 1,
      max: 9,
      mean: 31 / 8,
    });
    expect(xs).toEqual(copy);
  });

  it('rejects an empty list, non-finite values and levels outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrow(RangeError);
    expect(() => summary([])).toThrow(RangeError);
    expect(() => quantile([1, Number.NaN], 0.5)).toThrow(RangeError);
    expect(() => quantile([1, 2], 1.5)).toThrow(RangeError);
    expect(() => quantile([1, 2], -0.1)).toThrow(RangeError);
  });
});

describe('bootstrapAuc', () => {
  it('gives an interval around the point estimate that narrows with more data', () => {
    const small = syntheticWallets(200, 'small');
    const large = syntheticWallets(5000, 'large');
    const a = bootstrapAuc(small.risks, small.outcomes, { seed: 'ci', resamples: 500 });
    const b = bootstrapAuc(large.risks, large.outcomes, { seed: 'ci', resamples: 500 });
    for (const ci of [a, b]) {
      expect(ci.low).toBeLessThanOrEqual(ci.auc);
      expect(ci.high).toBeGreaterThanOrEqual(ci.auc);
      expect(ci.low).toBeLessThan(ci.high);
    }
    expect(a.auc).toBe(aucMannWhitney(small.risks, small.outcomes));
    // The width shrinks about as 1/√n: √(5000/200) = 5.
    expect(b.high - b.low).toBeLessThan((a.high - a.low) / 2.5);
    expect(b.low).toBeGreaterThan(0.7); // the model's true AUC is about 0.77
  });

  it('is deterministic for a seed and changes with it', () => {
    const { risks, outcomes } = syntheticWallets(300, 'det');
    const once = bootstrapAuc(risks, outcomes, { seed: 'seed-1', resamples: 200 });
    expect(bootstrapAuc(risks, outcomes, { seed: 'seed-1', resamples: 200 })).toEqual(once);
    const other = bootstrapAuc(risks, outcomes, { seed: 'seed-2', resamples: 200 });
    expect(other.auc).toBe(once.auc);
    expect([other.low, other.high]).not.toEqual([once.low, once.high]);
  });

  it('scores each resample as aucMannWhitney would score it written out, ties included', () => {
    const random = seededRandom('ties');
    const risks = Array.from({ length: 120 }, () => randomInt(random, 15));
    const outcomes = risks.map((r) => random() < 0.15 + r / 30);
    for (const seed of ['a', 'b', 'c']) {
      // The same draws as the bootstrap: n indexes from randomInt on the seeded generator.
      const draws = seededRandom(seed);
      const picked = risks.map(() => randomInt(draws, risks.length));
      const expected = aucMannWhitney(
        picked.map((k) => risks[k]!),
        picked.map((k) => outcomes[k]!),
      );
      const ci = bootstrapAuc(risks, outcomes, { seed, resamples: 1 });
      expect(ci.low).toBeCloseTo(expected, 12);
      expect(ci.high).toBeCloseTo(expected, 12);
    }
  });

  it('is [1, 1] for a perfectly separating risk', () => {
    const risks = [1, 2, 3, 4, 5, 6, 7, 8];
    const outcomes = risks.map((r) => r > 4);
    expect(bootstrapAuc(risks, outcomes, { seed: 0, resamples: 100 })).toEqual({ auc: 1, low: 1, high: 1, resamples: 100 });
  });

  it('skips resamples that lack a class, and rejects an undefined AUC', () => {
    const risks = [5, 1, 2, 3, 4];
    const outcomes = [true, false, false, false, false];
    const ci = bootstrapAuc(risks, outcomes, { seed: 'rare', resamples: 1000 });
    // P(the one positive is drawn) = 1 − (4/5)^5 ≈ 0.67
    expect(ci.resamples).toBeGreaterThan(550);
    expect(ci.resamples).toBeLessThan(800);
    expect(ci.auc).toBe(1);
    expect(() => bootstrapAuc([1, 2], [true, true], { seed: 1 })).toThrow(RangeError);
    expect(() => bootstrapAuc([1, 2], [true, false], { seed: 1, resamples: 0 })).toThrow(RangeError);
  });
});

describe('bootstrapAucByGroup', () => {
  /** Worlds whose market shock moves every wallet's default probability together. */
  function worlds(count: number, perWorld: number, random: Random): GroupedOutcome[] {
    const items: GroupedOutcome[] = [];
    for (let w = 0; w < count; w += 1) {
      const shock = 1.5 * standardNormal(random);
      const slope = 0.3 + random() * 1.5; // how well the risk ranks in this world
      for (let i = 0; i < perWorld; i += 1) {
        const risk = standardNormal(random);
        items.push({ risk, outcome: random() < sigmoid(-1.5 + slope * risk + shock), group: `world-${w}` });
      }
    }
    return items;
  }

  it('resamples whole worlds: one world gives a degenerate interval at the pooled AUC', () => {
    const items = worlds(1, 200, seededRandom('one'));
    const ci = bootstrapAucByGroup(items, { seed: 'g', resamples: 50 });
    const pooled = aucMannWhitney(
      items.map((i) => i.risk),
      items.map((i) => i.outcome),
    );
    expect(ci).toEqual({ auc: pooled, low: pooled, high: pooled, resamples: 50 });
  });

  it("scores a resample of worlds as aucMannWhitney of those worlds' wallets", () => {
    const items = worlds(6, 30, seededRandom('few'));
    const draws = seededRandom('w');
    const picked = Array.from({ length: 6 }, () => randomInt(draws, 6));
    const resample = picked.flatMap((w) => items.filter((i) => i.group === `world-${w}`));
    const expected = aucMannWhitney(
      resample.map((i) => i.risk),
      resample.map((i) => i.outcome),
    );
    const ci = bootstrapAucByGroup(items, { seed: 'w', resamples: 1 });
    expect(ci.low).toBeCloseTo(expected, 12);
  });

  it('is deterministic, contains the pooled AUC, and is wider than the wallet bootstrap when worlds differ', () => {
    const items = worlds(25, 80, seededRandom('many'));
    const ci = bootstrapAucByGroup(items, { seed: 'g', resamples: 400 });
    expect(bootstrapAucByGroup(items, { seed: 'g', resamples: 400 })).toEqual(ci);
    expect(ci.low).toBeLessThanOrEqual(ci.auc);
    expect(ci.high).toBeGreaterThanOrEqual(ci.auc);
    const naive = bootstrapAuc(
      items.map((i) => i.risk),
      items.map((i) => i.outcome),
      { seed: 'g', resamples: 400 },
    );
    expect(naive.auc).toBe(ci.auc);
    expect(ci.high - ci.low).toBeGreaterThan(1.2 * (naive.high - naive.low));
  });
});

describe('kolmogorovSmirnov', () => {
  it('is 1 (with AUC 1) for a perfectly separating risk, at the highest negative', () => {
    const scores = [820, 760, 700, 450, 520, 610];
    const liquidated = [false, false, false, true, true, false];
    const risks = scores.map(scoreRisk);
    expect(kolmogorovSmirnov(risks, liquidated)).toEqual({ statistic: 1, threshold: scoreRisk(610) });
    expect(aucMannWhitney(risks, liquidated)).toBe(1);
  });

  it('is 0 for identical distributions, including when every risk ties', () => {
    expect(ksStatistic([1, 2, 3, 3, 1, 2, 3, 3], [true, true, true, true, false, false, false, false])).toBe(0);
    expect(ksStatistic([4, 4, 4, 4, 4], [true, false, false, true, false])).toBe(0);
  });

  it('measures gaps only between distinct values (ties across classes)', () => {
    // F₊ jumps 0 → 1 at 2, F₋ from 0 → 0.5 at 1 and → 1 at 2: the gap is 0.5 at t = 1, not more.
    expect(kolmogorovSmirnov([1, 2, 2], [false, true, false])).toEqual({ statistic: 0.5, threshold: 1 });
  });

  it('agrees with the definition on a pseudo-random sample with many ties', () => {
    const random = seededRandom('ks');
    const risks = Array.from({ length: 300 }, () => randomInt(random, 25));
    const positives = risks.map((r) => random() < 0.1 + r / 40);
    expect(ksStatistic(risks, positives)).toBeCloseTo(bruteForceKs(risks, positives), 12);
    expect(ksStatistic([...risks].reverse(), [...positives].reverse())).toBe(ksStatistic(risks, positives));
  });

  it('rejects an undefined statistic and bad input', () => {
    expect(() => ksStatistic([1, 2], [true, true])).toThrow(RangeError);
    expect(() => ksStatistic([1], [true, false])).toThrow(RangeError);
    expect(() => ksStatistic([1, Number.POSITIVE_INFINITY], [true, false])).toThrow(RangeError);
  });
});

describe('fitLogistic', () => {
  const truth = { intercept: -1, coefficients: [0.8, -1.5, 0, 0, 0.2] };

  /** Rows of five features of different scales (one constant) with outcomes from `truth`. */
  function draw(n: number, seed: string): { x: number[][]; y: boolean[] } {
    const random = seededRandom(seed);
    const x = Array.from({ length: n }, () => [
      2 + 3 * standardNormal(random),
      -1 + 0.5 * standardNormal(random),
      standardNormal(random),
      7, // constant column
      10 * random(),
    ]);
    const y = x.map((row) => random() < sigmoid(row.reduce((s, v, j) => s + truth.coefficients[j]! * v, truth.intercept)));
    return { x, y };
  }

  it('recovers the sign and size of the coefficients of a known logistic model', () => {
    const { x, y } = draw(5000, 'train');
    const model = fitLogistic(x, y, { l2: 1e-4 });
    expect(model.converged).toBe(true);
    expect(model.sds[3]).toBe(0);
    expect(model.weights[3]).toBe(0);
    const fitted = logisticCoefficients(model);
    expect(Math.sign(fitted.coefficients[0]!)).toBe(1);
    expect(Math.sign(fitted.coefficients[1]!)).toBe(-1);
    expect(Math.sign(fitted.coefficients[4]!)).toBe(1);
    fitted.coefficients.forEach((c, j) => expect(Math.abs(c - truth.coefficients[j]!)).toBeLessThan(0.2));
    expect(Math.abs(fitted.intercept - truth.intercept)).toBeLessThan(0.3);
    // The raw-unit coefficients describe the same predictions.
    const row = x[17]!;
    const eta = row.reduce((s, v, j) => s + fitted.coefficients[j]! * v, fitted.intercept);
    expect(predictLogistic(model, row)).toBeCloseTo(sigmoid(eta), 12);
  });

  it('predicts held-out outcomes better than a constant on log loss', () => {
    const train = draw(5000, 'train');
    const test = draw(2000, 'test');
    const model = fitLogistic(train.x, train.y);
    const baseRate = train.y.filter(Boolean).length / train.y.length;
    const modelLoss = logLoss(
      test.x.map((row) => predictLogistic(model, row)),
      test.y,
    );
    const constantLoss = logLoss(
      test.y.map(() => baseRate),
      test.y,
    );
    expect(modelLoss).toBeLessThan(constantLoss - 0.1);
  });

  it('is deterministic, and a strong penalty shrinks the weights towards 0', () => {
    const { x, y } = draw(1000, 'shrink');
    const weak = fitLogistic(x, y, { l2: 1e-4 });
    expect(fitLogistic(x, y, { l2: 1e-4 })).toEqual(weak);
    const strong = fitLogistic(x, y, { l2: 10 });
    const norm = (w: number[]) => Math.hypot(...w);
    expect(norm(strong.weights)).toBeLessThan(norm(weak.weights) / 5);
  });

  it('stays finite on constant columns and on perfectly separable data without a penalty', () => {
    const x = [
      [0, 5, 1],
      [1, 5, 2],
      [2, 5, 3],
      [3, 5, 4],
      [4, 5, 5],
      [5, 5, 6],
    ];
    const y = [false, false, false, true, true, true];
    const model = fitLogistic(x, y, { l2: 0, iterations: 30 });
    for (const v of [model.intercept, ...model.weights, ...model.means, ...model.sds]) expect(Number.isFinite(v)).toBe(true);
    expect(model.weights[1]).toBe(0);
    expect(predictLogistic(model, [0, 5, 1])).toBeLessThan(0.05);
    expect(predictLogistic(model, [5, 5, 6])).toBeGreaterThan(0.95);
    expect(predictLogistic(model, [5, 99, 6])).toBe(predictLogistic(model, [5, 5, 6])); // constant column ignored
    // A column of 0.1s is constant although its computed sd is a rounding error away from 0.
    const tenths = fitLogistic(
      x.map((row) => [row[0]!, 0.1]),
      y,
    );
    expect(tenths.sds[1]).toBe(0);
    expect(Number.isFinite(tenths.intercept)).toBe(true);
  });

  it('rejects missing outcomes, ragged rows and non-finite features', () => {
    expect(() => fitLogistic([[1], [2]], [true, true])).toThrow(RangeError);
    expect(() => fitLogistic([[1], [2, 3]], [true, false])).toThrow(RangeError);
    expect(() => fitLogistic([[1], [Number.NaN]], [true, false])).toThrow(RangeError);
    expect(() => fitLogistic([], [])).toThrow(RangeError);
    const model = fitLogistic([[1], [2], [3], [1.5]], [false, true, true, false]);
    expect(() => predictLogistic(model, [1, 2])).toThrow(RangeError);
  });
});

describe('brierScore and logLoss', () => {
  it('score perfect forecasts 0 and hand-computed ones as expected', () => {
    expect(brierScore([1, 0, 0, 1], [true, false, false, true])).toBe(0);
    expect(brierScore([0.5, 0.5], [true, false])).toBe(0.25);
    expect(brierScore([0.8, 0.1], [false, false])).toBeCloseTo((0.64 + 0.01) / 2, 12);
    expect(logLoss([1, 0], [true, false])).toBeCloseTo(0, 12);
    expect(logLoss([0.5, 0.5], [true, false])).toBeCloseTo(Math.LN2, 12);
    expect(() => brierScore([0.5], [true, false])).toThrow(RangeError);
    expect(() => brierScore([1.5], [true])).toThrow(RangeError);
    expect(() => brierScore([], [])).toThrow(RangeError);
  });
});
