import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { log1p } from './baselines';

/**
 * What the chain shows of a borrower's discipline, beside the challenger's inputs: its stablecoins
 * against its debt, the mean days a repaid dollar was owed, its other holdings against its
 * collateral, the loans it repaid, its dealings, and two products with the health factor.
 */
export function disciplineProxies(f: WalletFeatures): number[] {
  const cover = f.debtUsd > 0 ? Math.min(f.stablecoinUsd / f.debtUsd, 3) : 0;
  const meanDays = f.repaidUsd > 0 ? f.repaidUsdDays / f.repaidUsd : 0;
  const others = Math.max(0, f.totalAssetUsd - f.stablecoinUsd);
  const health = Math.min(f.healthFactor ?? 3, 3);
  return [
    cover,
    log1p(meanDays),
    f.collateralUsd > 0 ? Math.min(others / f.collateralUsd, 2) : 0,
    f.loansRepaid,
    log1p(f.transferCount + f.txCount),
    health * cover,
    health * f.loansRepaid,
  ];
}
