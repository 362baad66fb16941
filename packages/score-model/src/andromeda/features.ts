/**
 * The input of `andromeda_1.0`: one wallet's on-chain features, already aggregated over every
 * chain and already relative to the moment of scoring (ages in days), so the model needs no clock.
 *
 * Where each figure comes from (the service assembles them; the model does no I/O):
 * - the indexer's `address_activity` rows (apps/indexer/README.md), summed or min/max'ed over chains:
 *   age, lending event counts, the last liquidation's time; its raw transactions and transfers for
 *   the wallet's dealings with OTHER addresses (a self-send is none): transactions sent, transfers,
 *   distinct counterparties, months with activity;
 * - the chain readers (packages/chain): wallet balances valued in USD, lending collateral / debt and
 *   the health factor of the pools' `getUserAccountData`; every balance-like figure (assets,
 *   stablecoins, collateral) is the LOWEST it stood over the last 30 days (today's less the most that
 *   arrived since any moment of the window, from the index and the blocks after it), so money that
 *   arrived for a reading counts for nothing until it has stayed a month;
 * - the identity service and the name index: a passport's score, POAP event dates, how long the
 *   wallet has owned its names.
 */
export interface WalletFeatures {
  /** Days since the wallet's first recorded transaction on any chain. */
  walletAgeDays: number;
  /** Days since its latest transaction or transfer with another address on any chain. */
  daysSinceLastActivity: number;
  /** Transactions the wallet sent to another address, summed over chains (self-sends not counted). */
  txCount: number;
  /** ERC-20 transfers between it and another address (self-transfers not counted). */
  transferCount: number;
  /** Chains with any recorded activity. */
  activeChains: number;
  /** UTC calendar months, among the 12 ending with the month of scoring, with a transaction or transfer with another address. */
  activeMonths: number;
  /** Distinct other addresses it sent to or received from, over every chain (summed per chain). */
  counterparties: number;
  /**
   * USD value of the wallet's own balances (native and tokens), lending collateral not included:
   * each balance at its lowest over the last 30 days, at today's price.
   */
  totalAssetUsd: number;
  /** The stablecoin part of `totalAssetUsd` (also at its lowest over the window). */
  stablecoinUsd: number;
  /** Distinct assets held with a non-zero balance. */
  assetCount: number;
  /** USD value of collateral supplied to lending pools, at its lowest over the last 30 days. */
  collateralUsd: number;
  /** USD value of debt owed to lending pools (today's). */
  debtUsd: number;
  /**
   * Lowest health factor over the wallet's pools with debt, with the collateral at its lowest over
   * the window (the pools' figure × lowest collateral / today's collateral); null = no debt.
   */
  healthFactor: number | null;
  supplyCount: number;
  borrowCount: number;
  /** Repayments of its debt the wallet made itself (the pool's repayer was the wallet). */
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
  /** Identity attestations held (every source's, one per `attestationStrings` entry): reported, not scored by count. */
  identityAttestations: number;
  /** The passport's score (0–100); null without a passport. */
  passportScore: number | null;
  /** Days the wallet has owned its longest-held name (since it last changed hands); null without a name. */
  ensHeldDays: number | null;
  /** POAP events attended at least a year before scoring. */
  poapsAged: number;
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
  'activeMonths',
  'counterparties',
  'poapsAged',
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
  'passportScore',
  'ensHeldDays',
] as const satisfies readonly (keyof WalletFeatures)[];

const NULLABLE_FIELDS: ReadonlySet<string> = new Set(['healthFactor', 'daysSinceLastLiquidation', 'passportScore', 'ensHeldDays']);

/**
 * Returns the features unchanged, or throws a RangeError naming the first bad field: a count that
 * is not a non-negative integer, an amount that is negative, NaN or infinite, or a null outside
 * the nullable fields (`NULLABLE_FIELDS`).
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
    if (value === null && NULLABLE_FIELDS.has(field)) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`${field} must be a finite non-negative number, got ${String(value)}`);
    }
  }
  return features;
}
