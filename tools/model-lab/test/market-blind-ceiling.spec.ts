import { ceilingProbability, simulatedPaths, type CeilingWallet } from '@credit/devnet/seed/outcome-ceiling';
import { Rng } from '@credit/devnet/seed/rng';
import { OUTCOME_WINDOW, resolveWorldParams } from '@credit/devnet/seed/world-params';
import { MarketBlindCeiling } from '../src/evaluation/market-blind-ceiling';

/** A WETH borrower at T: 10 ETH at $2,000 supplied, `debtUsd` owed, no reserves. */
const borrower = (debtUsd: number, discipline = 0.5): CeilingWallet => ({
  discipline,
  asset: 'ETH',
  startPrice: 2_000,
  collateral: 10,
  collateralReserve: 0,
  debtUsd,
  stableReserveUsd: 0,
  ltv: 0.8,
  liquidationThreshold: 0.825,
  liquidationBonus: 0.05,
  interestDays: [30, 60, 90],
});

describe('the market-blind ceiling', () => {
  const calm = { jumpsPerYear: 0, dailyVol: 0.004, priceFloor: 0.9 };
  const wild = { jumpsPerYear: 12, jumpDepth: [0.3, 0.5] as const, dailyVol: 0.045, priceFloor: 0.35 };

  it('gives a wallet without debt nothing, and the same answer for the same seed', () => {
    const blind = new MarketBlindCeiling({});
    expect(blind.probability(borrower(0), 'w')).toBe(0);
    expect(blind.probability(borrower(14_000), 'w')).toBe(new MarketBlindCeiling({}).probability(borrower(14_000), 'w'));
  });

  it('ranks a thinner margin as riskier', () => {
    const blind = new MarketBlindCeiling({});
    const near = blind.probability(borrower(15_500), 'a');
    const far = blind.probability(borrower(6_000), 'a');
    expect(near).toBeGreaterThan(far);
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(1);
  });

  it("does not know the world's market: a calm world and a wild one get the same estimate, which the seeding's ceiling tells apart", () => {
    const wallet = borrower(14_500);
    const atCalm = new MarketBlindCeiling(calm).probability(wallet, 'x');
    const atWild = new MarketBlindCeiling(wild).probability(wallet, 'x');
    expect(atCalm).toBe(atWild);
    const knowing = (world: object) => {
      const params = resolveWorldParams(world);
      const paths = simulatedPaths(params, new Rng('paths'), 400, OUTCOME_WINDOW.days);
      return ceilingProbability(wallet, paths, params, new Rng('reactions'), OUTCOME_WINDOW.days);
    };
    expect(knowing(wild)).toBeGreaterThan(atWild);
    expect(knowing(calm)).toBeLessThan(atCalm);
  });

  it("keeps the world's interest rate, which is on chain at T", () => {
    const wallet = { ...borrower(15_800, 0), interestDays: [10, 40, 70] };
    const cheap = new MarketBlindCeiling({ interestApr: 0 }).probability(wallet, 'r');
    const dear = new MarketBlindCeiling({ interestApr: 0.5 }).probability(wallet, 'r');
    expect(dear).toBeGreaterThan(cheap);
  });
});
