import type { WalletFeatures } from '../../src/andromeda/features';

/** Nothing recorded at all. */
export const EMPTY: WalletFeatures = {
  walletAgeDays: 0,
  daysSinceLastActivity: 0,
  txCount: 0,
  transferCount: 0,
  activeChains: 0,
  totalAssetUsd: 0,
  stablecoinUsd: 0,
  assetCount: 0,
  collateralUsd: 0,
  debtUsd: 0,
  healthFactor: null,
  supplyCount: 0,
  borrowCount: 0,
  repayCount: 0,
  borrowedUsd: 0,
  repaidUsd: 0,
  repaidUsdDays: 0,
  loansRepaid: 0,
  liquidationCount: 0,
  daysSinceLastLiquidation: null,
  identityAttestations: 0,
  activeMonths: 0,
  counterparties: 0,
  passportScore: null,
  ensHeldDays: null,
  poapsAged: 0,
};

/** Three years of use, 13 loans of which 12 repaid, a comfortable open position (the devnet's story). */
export const HEALTHY_BORROWER: WalletFeatures = {
  ...EMPTY,
  walletAgeDays: 1100,
  daysSinceLastActivity: 3,
  txCount: 60,
  transferCount: 80,
  activeChains: 1,
  totalAssetUsd: 25_000,
  stablecoinUsd: 10_000,
  assetCount: 4,
  collateralUsd: 20_000,
  debtUsd: 6_000,
  healthFactor: 2.6,
  supplyCount: 8,
  borrowCount: 13,
  repayCount: 12,
  borrowedUsd: 186_000,
  repaidUsd: 180_000,
  repaidUsdDays: 7_200_000,
  loansRepaid: 12,
  activeMonths: 11,
  counterparties: 24,
  passportScore: 28,
  ensHeldDays: 400,
  poapsAged: 1,
  identityAttestations: 4,
};

/** The same kind of wallet liquidated once, 40 days ago, now without debt. */
export const LIQUIDATED: WalletFeatures = {
  ...HEALTHY_BORROWER,
  borrowCount: 4,
  repayCount: 2,
  borrowedUsd: 40_000,
  repaidUsd: 15_000,
  repaidUsdDays: 450_000,
  loansRepaid: 2,
  collateralUsd: 2_000,
  debtUsd: 0,
  healthFactor: null,
  liquidationCount: 1,
  daysSinceLastLiquidation: 40,
};

/** A single transaction two days ago. */
export const NEW_WALLET: WalletFeatures = {
  ...EMPTY,
  walletAgeDays: 2,
  daysSinceLastActivity: 2,
  txCount: 1,
  transferCount: 1,
  activeChains: 1,
  totalAssetUsd: 500,
  stablecoinUsd: 500,
  assetCount: 1,
};
