import { decileCutPoints } from '../src/calibration/decile-cut-points';
import { MIN_JUDGED, decileCalibration, psi, wilson, type ScoredOutcome } from '../src/evaluation/decile-calibration';
import { seededRandom } from '../src/evaluation/seeded-random';

const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));

/** Scores 300..900 whose stated probability is the one the outcome is drawn from (`shift` moves the truth). */
function population(n: number, seed: string, shift = 0): ScoredOutcome[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const score = 300 + Math.round(600 * random());
    const probability = sigmoid((600 - score) / 60);
    return { score, probability, outcome: random() < sigmoid((600 - score) / 60 + shift) };
  });
}

function statedRates(training: readonly ScoredOutcome[], cuts: readonly number[]): number[] {
  const sums = Array.from({ length: 10 }, () => ({ n: 0, p: 0 }));
  for (const w of training) {
    const d = sums[cuts.filter((c) => c <= w.score).length]!;
    d.n += 1;
    d.p += w.probability;
  }
  return sums.map((d) => d.p / d.n);
}

describe('decileCalibration', () => {
  const training = population(4000, 'train');
  const cuts = decileCutPoints(training.map((w) => w.score));
  const stated = statedRates(training, cuts);

  it('finds a calibrated model within its intervals, monotone, skilful and stable', () => {
    const c = decileCalibration(training, population(3000, 'held-out'), cuts, stated);
    expect(c.rows.reduce((s, r) => s + r.count, 0)).toBe(3000);
    expect(c.rows.every((r) => r.count >= MIN_JUDGED)).toBe(true);
    // ten 95 % intervals: a calibrated model misses one or two by chance (three or more: about 1 %)
    expect(c.rows.filter((r) => r.within === false).length).toBeLessThanOrEqual(2);
    expect(c.monotone).toBe(true);
    expect(c.brierSkill).toBeGreaterThan(0.2);
    expect(c.psi).toBeLessThan(0.02);
  });

  it('catches a world twice as risky: stated probabilities fall outside the observed intervals', () => {
    const c = decileCalibration(training, population(3000, 'rough', Math.log(3)), cuts, stated);
    expect(c.allWithin).toBe(false);
    expect(c.rows.filter((r) => r.within === false).length).toBeGreaterThan(3);
  });

  it('catches a shifted population (PSI) and a decile order that is not monotone', () => {
    const high = population(3000, 'high').map((w) => ({ ...w, score: Math.min(1000, w.score + 150) }));
    expect(decileCalibration(training, high, cuts, stated).psi).toBeGreaterThan(0.1);
    const inverted = population(3000, 'inverted').map((w) => ({ ...w, outcome: !w.outcome }));
    expect(decileCalibration(training, inverted, cuts, stated).monotone).toBe(false);
  });

  it('judges no decile with fewer than 50 wallets', () => {
    const c = decileCalibration(training, population(100, 'small'), cuts, stated);
    expect(c.rows.every((r) => r.within === null)).toBe(true);
    expect(c.allWithin).toBe(true);
  });
});

describe('wilson and psi', () => {
  it('give the textbook figures', () => {
    const [lo, hi] = wilson(10, 100);
    expect(lo).toBeCloseTo(0.0552, 3);
    expect(hi).toBeCloseTo(0.1744, 3);
    expect(wilson(0, 50)[0]).toBe(0);
    expect(psi([0.5, 0.5], [0.5, 0.5])).toBe(0);
    expect(psi([0.6, 0.4], [0.5, 0.5])).toBeCloseTo(0.1 * Math.log(1.2) + -0.1 * Math.log(0.8), 12);
  });
});
