import { fitMonotoneLogistic, predictMonotone } from '../src/fitting/monotone-logistic';
import { seededRandom } from '../src/evaluation/seeded-random';

const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));

/** Rows of one figure cut into 4 bins (cumulative indicators), the outcome's log-odds falling with the bin. */
function rows(n: number, seed: string, logits: readonly number[]) {
  const random = seededRandom(seed);
  const bins = Array.from({ length: n }, () => Math.floor(random() * 4));
  const outcomes = bins.map((b) => random() < sigmoid(logits[b]!));
  const columns = [1, 2, 3].map((k) => Float64Array.from(bins, (b) => (b >= k ? 1 : 0)));
  return { bins, outcomes, columns };
}

describe('fitMonotoneLogistic', () => {
  it('recovers falling log-odds per bin', () => {
    const truth = [1, 0, -1, -2.5];
    const { columns, outcomes } = rows(20_000, 'falling', truth);
    const fit = fitMonotoneLogistic(columns, outcomes, { lambda: 1e-6 });
    const cumulative = [0, 1, 2, 3].map((b) => fit.intercept + fit.coefficients.slice(0, b).reduce((s, x) => s + x, 0));
    cumulative.forEach((logit, b) => expect(logit).toBeCloseTo(truth[b]!, 0));
    expect(fit.coefficients.every((c) => c <= 0)).toBe(true);
  });

  it('holds the constraint when the data say otherwise: a safer bin never gets a higher log-odds', () => {
    // bin 2 is riskier than bin 1 in the data; the fit pools them instead of rising
    const { columns, outcomes } = rows(20_000, 'kinked', [1, -1, 0.5, -2]);
    const fit = fitMonotoneLogistic(columns, outcomes, { lambda: 1e-6 });
    expect(fit.coefficients.every((c) => c <= 0)).toBe(true);
    const p = (b: number) =>
      predictMonotone(
        fit,
        [1, 2, 3].map((k) => (b >= k ? 1 : 0)),
      );
    expect(p(0)).toBeGreaterThanOrEqual(p(1));
    expect(p(1)).toBeGreaterThanOrEqual(p(2) - 1e-12);
    expect(p(2)).toBeGreaterThanOrEqual(p(3));
    expect(Math.abs(p(1) - p(2))).toBeLessThan(1e-6);
  });

  it('shrinks toward the base rate as the penalty grows', () => {
    const { columns, outcomes } = rows(5_000, 'shrink', [1, 0, -1, -2]);
    const loose = fitMonotoneLogistic(columns, outcomes, { lambda: 1e-6 });
    const tight = fitMonotoneLogistic(columns, outcomes, { lambda: 10 });
    const size = (c: number[]) => c.reduce((s, x) => s + Math.abs(x), 0);
    expect(size(tight.coefficients)).toBeLessThan(size(loose.coefficients) / 5);
    expect(tight.logLoss).toBeGreaterThan(loose.logLoss);
  });
});
