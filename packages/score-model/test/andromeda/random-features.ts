import type { WalletFeatures } from '../../src/andromeda/features';

export type Rng = () => number;

export const int = (rng: Rng, max: number): number => Math.floor(rng() * (max + 1));
/** Log-uniform-ish amounts with a share of exact zeros, to hit every bucket edge region. */
const amount = (rng: Rng, max: number): number => (rng() < 0.15 ? 0 : Math.round(max ** rng() * 100) / 100);
const pick = <T>(rng: Rng, values: readonly T[]): T => values[int(rng, values.length - 1)]!;

/** A random, internally plausible feature vector (liquidations only for borrowers, stablecoins ≤ assets). */
export function randomFeatures(rng: Rng): WalletFeatures {
  const walletAgeDays = rng() < 0.1 ? int(rng, 3) : int(rng, 3000);
  const borrowCount = rng() < 0.4 ? 0 : int(rng, 30);
  const repayCount = borrowCount === 0 ? 0 : int(rng, borrowCount + 2);
  const liquidationCount = borrowCount === 0 || rng() < 0.7 ? 0 : 1 + int(rng, 3);
  const totalAssetUsd = amount(rng, 2_000_000);
  const collateralUsd = borrowCount === 0 && rng() < 0.7 ? 0 : amount(rng, 500_000);
  const debtUsd = borrowCount === 0 ? 0 : amount(rng, collateralUsd + 1);
  const borrowedUsd = borrowCount === 0 ? 0 : debtUsd + amount(rng, 1_000_000);
  const repaidUsd = Math.round(Math.max(0, borrowedUsd - debtUsd) * rng() * 100) / 100;
  return {
    walletAgeDays,
    daysSinceLastActivity: int(rng, walletAgeDays),
    txCount: rng() < 0.1 ? int(rng, 2) : int(rng, 400),
    transferCount: int(rng, 400),
    activeChains: int(rng, 4),
    totalAssetUsd,
    stablecoinUsd: Math.round(totalAssetUsd * rng() * 100) / 100,
    assetCount: int(rng, 8),
    collateralUsd,
    debtUsd,
    healthFactor: debtUsd > 0 ? pick(rng, [0.95, 1.05, 1.2, 1.4, 1.8, 2.5, 4, 1 + rng() * 5]) : null,
    supplyCount: collateralUsd > 0 ? 1 + int(rng, 30) : 0,
    borrowCount,
    repayCount,
    borrowedUsd,
    repaidUsd,
    repaidUsdDays: Math.round(repaidUsd * int(rng, 400) * 100) / 100,
    loansRepaid: repaidUsd > 0 ? int(rng, repayCount) : 0,
    liquidationCount,
    daysSinceLastLiquidation: liquidationCount > 0 ? int(rng, Math.max(1, walletAgeDays)) : null,
    identityAttestations: rng() < 0.8 ? 0 : int(rng, 4),
    activeMonths: int(rng, 12),
    counterparties: int(rng, 60),
    passportScore: rng() < 0.8 ? null : int(rng, 60),
    ensHeldDays: rng() < 0.9 ? null : int(rng, 900),
    poapsAged: rng() < 0.9 ? 0 : int(rng, 4),
  };
}

/** A long-standing borrower that repaid everything and was never liquidated. */
export function longCleanBorrower(rng: Rng): WalletFeatures {
  const f = randomFeatures(rng);
  const borrowCount = 3 + int(rng, 20);
  const collateralUsd = 1_000 + amount(rng, 200_000);
  const debtUsd = rng() < 0.3 ? 0 : Math.round(collateralUsd * (0.1 + rng() * 0.4));
  return {
    ...f,
    walletAgeDays: 730 + int(rng, 2000),
    daysSinceLastActivity: int(rng, 60),
    txCount: 30 + int(rng, 300),
    borrowCount,
    repayCount: borrowCount,
    borrowedUsd: borrowCount * 5_000 + debtUsd,
    repaidUsd: borrowCount * 5_000,
    repaidUsdDays: borrowCount * 5_000 * (20 + int(rng, 60)),
    loansRepaid: borrowCount,
    collateralUsd,
    debtUsd,
    healthFactor: debtUsd > 0 ? 1.5 + rng() * 3 : null,
    supplyCount: 1 + int(rng, 20),
    liquidationCount: 0,
    daysSinceLastLiquidation: null,
  };
}
