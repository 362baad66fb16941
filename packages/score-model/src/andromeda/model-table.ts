import type { FactorLabel } from '@credit/contracts/schemas/score';
import { SCORE_MIN } from '../score-bands';

// The andromeda_1.0 scorecard's definition: its weights, bucket tables and cut-points. The scoring
// functions are in ./factors.ts (one factor each) and ./scorecard.ts (the score from the factors).

export const MODEL_ID = 'andromeda_1.0';

/** One row of a bucket table: values at or above `atLeast` (up to the next row) earn `points`. */
export interface Bucket {
  readonly atLeast: number;
  readonly points: number;
}

/** Rows sorted by `atLeast` ascending; the first row starts at the feature's lowest value. */
export type BucketTable = readonly Bucket[];

/**
 * andromeda_1.0: every weight, bucket and cut-point of the model. Nothing else in this file holds
 * a number that changes a score. Points are 0..100 per factor; a factor's points project onto
 * 300..1000 as 300 + 7 × points.
 */
export const ANDROMEDA_1_0 = {
  /**
   * Factor weights (sum 1), set on the evaluation's training worlds only (docs/MODEL.md, "The worlds
   * it is judged on": `pnpm model:evaluate --tune`, a grid of step 0.05 with every factor at least
   * 0.05, maximising the pooled AUC among the wallets with debt). Wallet Health leads: the live
   * position's distance from liquidation, with the wallet's own stablecoins as cover, is the
   * nearest indicator of a liquidation. Borrowing History (a record of carrying and repaying debt)
   * and Wallet Composition (net worth and stablecoins beyond debt: the buffer) follow. Interactions,
   * Trust and New Credit keep the floor: they describe the wallet, not its risk of liquidation, in
   * these worlds.
   */
  weights: {
    'Wallet Health': 0.55,
    'Borrowing History': 0.15,
    'Wallet Composition': 0.15,
    Interactions: 0.05,
    'New Credit': 0.05,
    Trust: 0.05,
  } satisfies Record<FactorLabel, number>,

  borrowing: {
    /** Never borrowed, or borrowed and not yet repaid: no credit record either way, a neutral middle. */
    noRecordPoints: 50,
    /**
     * The record lifts the factor from the neutral middle by up to 50 points, in proportion to what
     * it cost: the principal the wallet repaid itself × the days it was owed (USD-days, the base
     * interest is charged on), linearly up to `fullUsdDays`: $100,000 owed for a year, about
     * $5,000 of interest at 5 %. Linear, not logarithmic: on a log scale the first $10 of interest
     * bought as much as the last $1,000, so six $10,000 loans held a day each (60,000 USD-days,
     * about $8 of interest) lifted a score by 25 points; here they lift it by 0.1. Another wallet's
     * repayments, interest and debt a liquidator covered count for nothing (`lendingRecordOf`).
     */
    record: { fullUsdDays: 36_500_000 },
    /**
     * Liquidation penalty = (first + each × (count − 1)) × decay, decay = max(floor, 2^(−days / halfLife)).
     * A first liquidation costs half the factor; a year halves it; a quarter of it never fades,
     * because a wallet that was once liquidated stays riskier than one that never was. A count with
     * no recorded time is treated as today (decay 1).
     */
    liquidation: { firstPoints: 50, eachFurtherPoints: 15, halfLifeDays: 365, decayFloor: 0.25 },
  },

  /**
   * After a liquidation, the factors that read the wallet's present state (Wallet Health, Wallet
   * Composition, Interactions) are capped at 100 × (1 − 2^(−days / halfLifeDays)): 0 on the day,
   * 50 after a month, 94 after four. What a liquidation leaves behind (no debt, less collateral, a
   * fresh event) is not evidence of health, so a liquidation can never raise a score; the wallet
   * earns its standing back by holding the position for a while. A count with no recorded time is
   * treated as today.
   */
  recovery: { halfLifeDays: 30 },

  health: {
    /**
     * The health factor with the wallet's stablecoins counted as cover (Aave: liquidatable below 1):
     * HF × debt / (debt − stablecoins held), the distance from liquidation once the wallet repays
     * what it can from the dollars it holds. Debt its stablecoins cover in full scores as no debt.
     * A repayment from those stablecoins leaves it unchanged (debt and cover fall together); a
     * repayment from other money raises it. Its top equals no debt: a loan never scores above none.
     */
    healthFactor: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 10 },
      { atLeast: 1.1, points: 20 },
      { atLeast: 1.2, points: 30 },
      { atLeast: 1.3, points: 40 },
      { atLeast: 1.45, points: 50 },
      { atLeast: 1.6, points: 58 },
      { atLeast: 1.8, points: 65 },
      { atLeast: 2.1, points: 70 },
      { atLeast: 2.5, points: 74 },
      { atLeast: 3, points: 77 },
      { atLeast: 5, points: 80 },
    ] as BucketTable,
    /** No debt: nothing to liquidate. A debt's leverage share below is never better than none either. */
    noDebtPoints: 80,
    /** Debt / (assets + collateral), buckets on the share left free: 1 − leverage. */
    freeShare: [
      { atLeast: 0, points: 0 },
      { atLeast: 0.2, points: 30 },
      { atLeast: 0.4, points: 60 },
      { atLeast: 0.6, points: 80 },
      { atLeast: 0.8, points: 100 },
    ] as BucketTable,
    /** Health factor leads (it is what triggers a liquidation); leverage adds the wallet's own buffer. */
    healthFactorShare: 0.7,
  },

  composition: {
    /** Net worth USD = assets + collateral − debt. Roughly one step per decade of USD. */
    netWorthUsd: [
      { atLeast: 0, points: 0 },
      { atLeast: 10, points: 15 },
      { atLeast: 100, points: 35 },
      { atLeast: 1_000, points: 55 },
      { atLeast: 10_000, points: 75 },
      { atLeast: 100_000, points: 90 },
      { atLeast: 1_000_000, points: 100 },
    ] as BucketTable,
    /**
     * Stablecoins held beyond what the wallet owes, as a share of its net worth: value that does not
     * fall with the price shocks that liquidate. Debt is netted against the stablecoins (it is owed
     * in dollars), so repaying a loan from them leaves the share as it was, and collateral counts in
     * the net worth because it is the holding most exposed to a shock.
     */
    stablecoinShare: [
      { atLeast: 0, points: 20 },
      { atLeast: 0.1, points: 50 },
      { atLeast: 0.25, points: 80 },
      { atLeast: 0.5, points: 100 },
    ] as BucketTable,
    /**
     * Size matters most (it absorbs losses), stability next. The number of distinct assets is not
     * counted: diversity by count is bought with dust, and a repayment that spends a token's last
     * unit would lower it.
     */
    shares: { netWorth: 0.6, stablecoin: 0.4 },
  },

  interactions: {
    /**
     * Dealings with OTHER addresses only (a self-send is none), read so that they cost time, not
     * money: months with a transaction or transfer among the 12 ending with the month of scoring,
     * each month worth the same (`monthsOfYear` of them is everything; a burst of transactions in
     * one day is one month); distinct counterparties on a log scale up to `fullCounterparties`
     * (a wash loop between two own wallets is one); chains with activity. Counts of transactions
     * and transfers are not scored: they are bought for gas (self-sends, cheap L2 transfers).
     */
    monthsOfYear: 12,
    fullCounterparties: 30,
    activeChains: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 50 },
      { atLeast: 2, points: 80 },
      { atLeast: 3, points: 100 },
    ] as BucketTable,
    shares: { months: 0.7, counterparties: 0.15, chains: 0.15 },
  },

  trust: {
    /**
     * Attestations weighed by what they cost to obtain, each read as of the moment of scoring with
     * its own date: from `base`, a passport scoring at least `passport.threshold` (the Stamps API's
     * default passing score: several verified stamps) adds `passport.points`; a name owned for
     * `ens.fullDays` adds `ens.points` (pro rata: a name bought or transferred in yesterday adds
     * nothing); each POAP of an event at least `poap.minAgeDays` old adds `poap.each`, up to
     * `poap.max` of them. Social handles, a passport below the threshold and fresh POAPs are free to
     * collect and add nothing. At most 100.
     */
    base: 40,
    passport: { threshold: 20, points: 30 },
    ens: { fullDays: 365, points: 30 },
    poap: { minAgeDays: 365, each: 5, max: 2 },
  },

  newCredit: {
    /** Wallet age in days: the length of the record the other factors stand on. */
    walletAgeDays: [
      { atLeast: 0, points: 0 },
      { atLeast: 30, points: 20 },
      { atLeast: 90, points: 40 },
      { atLeast: 180, points: 55 },
      { atLeast: 365, points: 70 },
      { atLeast: 730, points: 85 },
      { atLeast: 1460, points: 100 },
    ] as BucketTable,
  },

  /**
   * Thin histories. confidence = min(1, age / fullAgeDays) × min(1, evidence / fullEvidence), where
   * evidence counts the wallet's recorded actions of every kind: transactions sent, token transfers
   * in or out, lending supplies, borrows and repayments. (A smart-contract wallet sends no
   * transaction itself and a receive-only wallet sends none; their transfers and lending events
   * are their record.) A liquidation is not evidence: the liquidator acted, not the wallet. Above
   * the prior, a score keeps only `confidence` of its distance to it: little evidence cannot earn a
   * good score. At or below the prior it is left alone: little evidence cannot lift a bad one.
   * (One-sided, so more age or more transactions never lower a score.) The prior sits in `low`,
   * 20 under `fair`: an unknown wallet is lent to as a below-average one.
   */
  thinHistory: { prior: 620, fullAgeDays: 90, fullEvidence: 3 },

  /** No recorded activity at all (no age, transactions, transfers, lending, holdings): the floor. */
  emptyScore: SCORE_MIN,

  /**
   * Decile cut-points (docs/MODEL.md): the nine scores that split the reference world's population
   * (packages/devnet/src/seed/reference-world.ts), scored at the world's head, into tenths.
   * Measured by `pnpm model:card` (docs/MODEL.md); use with `decileOf(score, cutPoints)`.
   */
  decileCutPoints: [631, 650, 679, 732, 755, 775, 785, 791, 797] as readonly number[],
} as const;
