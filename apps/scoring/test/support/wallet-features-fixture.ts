import type { WalletFeatures } from '@credit/score-model/andromeda/features';

/** A wallet with nothing: no history, no holdings, no borrowing record, no identity. */
const NOTHING: WalletFeatures = {
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

/** The model's input for a test: a wallet with nothing, but for the figures given. */
export function featuresOf(figures: Partial<WalletFeatures>): WalletFeatures {
  return { ...NOTHING, ...figures };
}

/** The same wallet without any identity evidence (no attestations, passport, names or POAPs). */
export function withoutIdentity(features: WalletFeatures): WalletFeatures {
  const { identityAttestations, passportScore, ensHeldDays, poapsAged } = NOTHING;
  return { ...features, identityAttestations, passportScore, ensHeldDays, poapsAged };
}
