import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { fitLogistic, predictLogistic, type LogisticModel } from './logistic-regression';

/**
 * The simple baselines andromeda_1.0 is judged against. Each maps a wallet's features to a risk
 * (higher = more likely liquidated); only the order matters to the AUC and the KS.
 */

/** The health factor alone: the lower, the riskier; no debt is the safest of all. */
export const healthFactorRisk = (f: WalletFeatures): number => (f.healthFactor === null ? 0 : 1 / (f.healthFactor + 1e-9));

/** One bit: has an open loan. */
export const hasDebtRisk = (f: WalletFeatures): number => (f.debtUsd > 0 ? 1 : 0);

/** ln(1 + x) of an amount or a count, 0 for anything below 0. */
export const log1p = (x: number): number => Math.log1p(Math.max(0, x));

/**
 * The logistic regression's inputs: every feature of the model, amounts and counts on a log scale,
 * the health factor capped at 10 (no debt = 10) with a has-debt indicator beside it.
 */
export function logisticInputs(f: WalletFeatures): number[] {
  return [
    log1p(f.walletAgeDays),
    log1p(f.daysSinceLastActivity),
    log1p(f.txCount),
    log1p(f.transferCount),
    f.activeChains,
    log1p(f.totalAssetUsd),
    log1p(f.stablecoinUsd),
    f.assetCount,
    log1p(f.collateralUsd),
    log1p(f.debtUsd),
    f.healthFactor === null ? 10 : Math.min(10, f.healthFactor),
    f.debtUsd > 0 ? 1 : 0,
    log1p(f.supplyCount),
    log1p(f.borrowCount),
    log1p(f.repayCount),
    log1p(f.borrowedUsd),
    log1p(f.repaidUsd),
    log1p(f.repaidUsdDays),
    f.loansRepaid,
    f.liquidationCount,
    f.identityAttestations,
  ];
}

/** A logistic regression on the same features, fitted on the training worlds only. */
export function fitLogisticBaseline(features: readonly WalletFeatures[], outcomes: readonly boolean[]): LogisticModel {
  return fitLogistic(features.map(logisticInputs), outcomes, { l2: 1e-2, iterations: 100 });
}

export const logisticRisk =
  (model: LogisticModel) =>
  (f: WalletFeatures): number =>
    predictLogistic(model, logisticInputs(f));
