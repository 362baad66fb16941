/**
 * The input of `andromeda_1.0`: one wallet's on-chain features, already aggregated over every
 * chain and already relative to the moment of scoring (ages in days), so the model needs no clock.
 *
 * Where each figure comes from (the service assembles them; the model does no I/O):
 * - the indexer's `address_activity` rows (apps/indexer/README.md), summed or min/max'ed over chains:
 *   ages and recency, `txCount` (sent transactions), `transferCount` (ERC-20 transfers), lending
 *   event counts, the last liquidation's time;
 * - the chain readers (packages/chain): wallet balances valued in USD, lending collateral / debt and
 *   the health factor of the pools' `getUserAccountData`.
 */
export interface WalletFeatures {
  /** Days since the wallet's first recorded transaction on any chain. */
  walletAgeDays: number;
  /** Days since its latest recorded transaction on any chain. */
  daysSinceLastActivity: number;
  /** Transactions the wallet sent (its nonce, summed over chains). */
  txCount: number;
  /** ERC-20 transfers in or out. */
  transferCount: number;
  /** Chains with any recorded activity. */
  activeChains: number;
  /** USD value of the wallet's own balances (native and tokens), lending collateral not included. */
  totalAssetUsd: number;
  /** The stablecoin part of `totalAssetUsd`. */
  stablecoinUsd: number;
  /** Distinct assets held with a non-zero balance. */
  assetCount: number;
  /** USD value of collateral supplied to lending pools. */
  collateralUsd: number;
  /** USD value of debt owed to lending pools. */
  debtUsd: number;
  /** Lowest health factor over the wallet's pools with debt; null = no debt. */
  healthFactor: number | null;
  supplyCount: number;
  borrowCount: number;
  /** Repay events credited to the wallet as borrower. */
  repayCount: number;
  /** Principal borrowed over the wallet's history, USD at today's prices. */
  borrowedUsd: number;
  /** Principal the wallet repaid itself (interest and debt a liquidator covered not counted), USD. */
  repaidUsd: number;
  /**
   * Σ over the principal repaid of amount × days it was owed (USD-days): the size and the length
   * of the wallet's record of repayment in one figure.
   */
  repaidUsdDays: number;
  /** Loans repaid in full (debt of an asset back to zero by the wallet) worth at least `LOAN_MIN_USD_DAYS` each. */
  loansRepaid: number;
  /** Times the wallet was liquidated. */
  liquidationCount: number;
  /** Days since the latest liquidation; null = never liquidated. */
  daysSinceLastLiquidation: number | null;
  /** Identity attestations held (0 until the identity service exists). */
  identityAttestations: number;
}

/**
 * A repaid loan counts in `loansRepaid` when it was worth at least this many USD-days ($1,000 owed
 * for ten days, or $100 for a hundred): loops of tiny loans repaid at once are not loans.
 */
export const LOAN_MIN_USD_DAYS = 10_000;

/** Fields that count something: non-negative integers. */
const COUNT_FIELDS = [
  'txCount',
  'transferCount',
  'activeChains',
  'assetCount',
  'supplyCount',
  'borrowCount',
  'repayCount',
  'loansRepaid',
  'liquidationCount',
  'identityAttestations',
] as const satisfies readonly (keyof WalletFeatures)[];

/** Fields that measure an amount or a duration: finite non-negative numbers (null allowed where typed so). */
const AMOUNT_FIELDS = [
  'walletAgeDays',
  'daysSinceLastActivity',
  'totalAssetUsd',
  'stablecoinUsd',
  'collateralUsd',
  'debtUsd',
  'borrowedUsd',
  'repaidUsd',
  'repaidUsdDays',
  'healthFactor',
  'daysSinceLastLiquidation',
] as const satisfies readonly (keyof WalletFeatures)[];

/**
 * Returns the features unchanged, or throws a RangeError naming the first bad field: a count that
 * is not a non-negative integer, an amount that is negative, NaN or infinite, or a null outside
 * `healthFactor` / `daysSinceLastLiquidation`.
 */
export function validateFeatures(features: WalletFeatures): WalletFeatures {
  for (const field of COUNT_FIELDS) {
    const value = features[field];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new RangeError(`${field} must be a non-negative integer, got ${String(value)}`);
    }
  }
  for (const field of AMOUNT_FIELDS) {
    const value = features[field];
    if (value === null && (field === 'healthFactor' || field === 'daysSinceLastLiquidation')) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`${field} must be a finite non-negative number, got ${String(value)}`);
    }
  }
  return features;
}
