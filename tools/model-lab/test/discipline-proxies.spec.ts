import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { disciplineProxies } from '../src/evaluation/discipline-proxies';

const borrower = (over: Partial<WalletFeatures>): WalletFeatures =>
  ({
    debtUsd: 10_000,
    stablecoinUsd: 5_000,
    totalAssetUsd: 8_000,
    collateralUsd: 30_000,
    healthFactor: 1.5,
    repaidUsd: 2_000,
    repaidUsdDays: 60_000,
    loansRepaid: 2,
    transferCount: 3,
    txCount: 4,
    ...over,
  }) as WalletFeatures;

describe('disciplineProxies', () => {
  it("reads a borrower's reserves, record and dealings as the ceiling analysis uses them", () => {
    const [cover, meanDays, others, loans, dealings, healthCover, healthLoans] = disciplineProxies(borrower({}));
    expect(cover).toBeCloseTo(0.5);
    expect(meanDays).toBeCloseTo(Math.log1p(30));
    expect(others).toBeCloseTo(0.1);
    expect(loans).toBe(2);
    expect(dealings).toBeCloseTo(Math.log1p(7));
    expect(healthCover).toBeCloseTo(0.75);
    expect(healthLoans).toBeCloseTo(3);
  });

  it('caps the cover and the health factor, and reads nothing where there is no debt, record or collateral', () => {
    const capped = disciplineProxies(borrower({ stablecoinUsd: 1e9, totalAssetUsd: 1e9, healthFactor: 40 }));
    expect(capped[0]).toBe(3);
    expect(capped[5]).toBe(9);
    const none = disciplineProxies(borrower({ debtUsd: 0, healthFactor: null, repaidUsd: 0, repaidUsdDays: 0, collateralUsd: 0 }));
    expect(none.slice(0, 3)).toEqual([0, 0, 0]);
  });
});
