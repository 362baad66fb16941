import { isScore } from '../../src/score-bands';
import { FACTOR_ORDER, scoreWallet } from '../../src/andromeda/scorecard';
import { int, longCleanBorrower, prng, randomFeatures } from './random-features';

const CASES = 5_000;
const score = (f: Parameters<typeof scoreWallet>[0]): number => scoreWallet(f).score;

describe('andromeda_1.0 properties (seeded random feature vectors)', () => {
  it(`is always an integer in 300..1000, with six explained factors (${CASES} cases)`, () => {
    const rng = prng(1);
    for (let i = 0; i < CASES; i++) {
      const result = scoreWallet(randomFeatures(rng));
      expect(isScore(result.score)).toBe(true);
      expect(result.factors.map((x) => x.label)).toEqual(FACTOR_ORDER);
      for (const factor of result.factors) {
        expect(Number.isInteger(factor.points) && factor.points >= 0 && factor.points <= 100).toBe(true);
        expect(factor.reasons.length).toBeGreaterThan(0);
      }
    }
  });

  it('is deterministic', () => {
    const a = prng(2);
    const b = prng(2);
    for (let i = 0; i < 500; i++) expect(scoreWallet(randomFeatures(a))).toEqual(scoreWallet(randomFeatures(b)));
  });

  it('one more liquidation never raises the score', () => {
    const rng = prng(3);
    let lowered = 0;
    for (let i = 0; i < CASES; i++) {
      const f = randomFeatures(rng);
      const days = f.daysSinceLastLiquidation ?? int(rng, 2000);
      const after = score({ ...f, liquidationCount: f.liquidationCount + 1, daysSinceLastLiquidation: days });
      expect(after).toBeLessThanOrEqual(score(f));
      if (after < score(f)) lowered++;
    }
    expect(lowered).toBeGreaterThan(CASES / 2);
  });

  it('a more recent last liquidation never raises the score', () => {
    const rng = prng(4);
    for (let i = 0; i < CASES; i++) {
      const f = randomFeatures(rng);
      const older = int(rng, 3000);
      const newer = int(rng, older);
      const liquidationCount = Math.max(1, f.liquidationCount);
      expect(score({ ...f, liquidationCount, daysSinceLastLiquidation: newer })).toBeLessThanOrEqual(
        score({ ...f, liquidationCount, daysSinceLastLiquidation: older }),
      );
    }
  });

  it('one more repaid loan (borrow + 1, repay + 1) never lowers the score', () => {
    const rng = prng(5);
    let raised = 0;
    for (let i = 0; i < CASES; i++) {
      const f = randomFeatures(rng);
      const after = score({ ...f, borrowCount: f.borrowCount + 1, repayCount: f.repayCount + 1 });
      expect(after).toBeGreaterThanOrEqual(score(f));
      if (after > score(f)) raised++;
    }
    expect(raised).toBeGreaterThan(CASES / 4);
  });

  it('is monotone in wallet age for clean histories', () => {
    const rng = prng(6);
    let raised = 0;
    for (let i = 0; i < CASES; i++) {
      const f = { ...randomFeatures(rng), liquidationCount: 0, daysSinceLastLiquidation: null };
      const younger = int(rng, 3000);
      const older = younger + int(rng, 3000);
      const [a, b] = [score({ ...f, walletAgeDays: younger }), score({ ...f, walletAgeDays: older })];
      expect(b).toBeGreaterThanOrEqual(a);
      if (b > a) raised++;
    }
    expect(raised).toBeGreaterThan(CASES / 4);
  });

  it('a thin history (1 tx, 1 day old) scores below the median long clean borrower', () => {
    const rng = prng(7);
    const borrowers = Array.from({ length: 2_001 }, () => score(longCleanBorrower(rng))).sort((a, b) => a - b);
    const median = borrowers[1_000]!;
    for (let i = 0; i < CASES; i++) {
      const thin = { ...randomFeatures(rng), txCount: 1, walletAgeDays: 1, daysSinceLastActivity: int(rng, 1) };
      expect(score(thin)).toBeLessThan(median);
    }
  });
});
