import type { RangeLabel } from '@credit/contracts/schemas/common';
import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import { SCORE_MAX, SCORE_MIN, clampScore, rangeOf } from '../score-bands';
import { LOAN_MIN_USD_DAYS, validateFeatures, type WalletFeatures } from './features';

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

export interface FactorResult {
  label: FactorLabel;
  /** 0..100, an integer. */
  points: number;
  /** Score points below full marks: 7 × weight × (100 − points), the factor's share of what the score lacks. */
  pointsLost: number;
  /** The range of the factor's projection onto 300..1000 (300 + 7 × points). */
  rating: RangeLabel;
  /** Which bucket fired for which figure. */
  reasons: string[];
}

export interface ScoreResult {
  model: typeof MODEL_ID;
  /** Integer in 300..1000. */
  score: number;
  /** One per factor, in the order of `FACTOR_ORDER`. */
  factors: FactorResult[];
  /** 0..1: how much of the score's distance above the prior the evidence supports. */
  confidence: number;
}

/** The contracts' factor list (docs/MODEL.md), in the order the API lists them. */
export const FACTOR_ORDER: readonly FactorLabel[] = FACTOR_LABELS;

const M = ANDROMEDA_1_0;

/** The row that fires for `value`: the last whose `atLeast` ≤ value (the first row for anything lower). */
export function bucketOf(table: BucketTable, value: number): Bucket {
  let hit = table[0]!;
  for (const row of table) if (value >= row.atLeast) hit = row;
  return hit;
}

function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/**
 * Days are measured to the second (`(to − from) / 86,400`) and shown as whole days elapsed: a head
 * a few seconds later (a new block, a restarted devnet) changes the text only when it crosses a
 * day, not each time it crosses a hundredth of one (every 864 s), so the same wallet read twice a
 * minute apart reads the same. The buckets still see the exact figure.
 */
function fmtDays(days: number): string {
  return String(Math.floor(days));
}

/** Scores one bucketed figure and says so: "<name> 12 → bucket ≥ 12: 100 pts". */
function scored(table: BucketTable, value: number, name: string, reasons: string[], show: (value: number) => string = fmt): number {
  const row = bucketOf(table, value);
  reasons.push(`${name} ${show(value)} → bucket ≥ ${fmt(row.atLeast)}: ${row.points} pts`);
  return row.points;
}

function factor(label: FactorLabel, exactPoints: number, reasons: string[]): FactorResult {
  const points = Math.min(100, Math.max(0, Math.round(exactPoints)));
  const pointsLost = Math.round(((SCORE_MAX - SCORE_MIN) / 100) * M.weights[label] * (100 - points) * 10) / 10;
  return { label, points, pointsLost, rating: rangeOf(SCORE_MIN + 7 * points), reasons };
}

/**
 * The factors in adverse-action order: the one that costs the score most first (`pointsLost`),
 * ties in the model's order. What a lender tells an applicant first is what held the score down most.
 */
export function byPointsLost<F extends Pick<FactorResult, 'label' | 'pointsLost'>>(factors: readonly F[]): F[] {
  return [...factors].sort((a, b) => b.pointsLost - a.pointsLost || FACTOR_ORDER.indexOf(a.label) - FACTOR_ORDER.indexOf(b.label));
}

/** The liquidation recovery cap of the present-state factors (`recovery`); null when never liquidated. */
function recoveryCap(f: WalletFeatures): number | null {
  if (f.liquidationCount === 0) return null;
  return 100 * (1 - 2 ** (-(f.daysSinceLastLiquidation ?? 0) / M.recovery.halfLifeDays));
}

/** Applies the recovery cap to a present-state factor's points, saying so when it binds. */
function capped(points: number, f: WalletFeatures, reasons: string[]): number {
  const cap = recoveryCap(f);
  if (cap === null || points <= cap) return points;
  reasons.push(`liquidated ${fmtDays(f.daysSinceLastLiquidation ?? 0)} days ago: capped at ${fmt(Math.round(cap))} pts while it recovers`);
  return cap;
}

function borrowingHistory(f: WalletFeatures): FactorResult {
  const b = M.borrowing;
  const r = b.record;
  const reasons: string[] = [];
  let points: number = b.noRecordPoints;
  if (f.borrowedUsd === 0 && f.borrowCount === 0) {
    reasons.push(`no loans taken: neutral ${points} pts`);
  } else {
    const share = Math.min(1, f.repaidUsdDays / r.fullUsdDays);
    const lift = 50 * share;
    points += lift;
    reasons.push(
      `$${fmt(Math.round(f.repaidUsd))} of $${fmt(Math.round(f.borrowedUsd))} borrowed repaid by the wallet itself, ${fmt(Math.round(f.repaidUsdDays))} USD-days owed and repaid: ${(share * 100).toFixed(1)}% of the record's ${fmt(r.fullUsdDays)}`,
      `${f.loansRepaid} loan(s) of at least ${fmt(LOAN_MIN_USD_DAYS)} USD-days repaid in full`,
      `record: ${b.noRecordPoints} + ${lift.toFixed(1)} pts`,
    );
  }
  if (f.liquidationCount > 0) {
    const l = b.liquidation;
    const days = f.daysSinceLastLiquidation ?? 0;
    const decay = Math.max(l.decayFloor, 2 ** (-days / l.halfLifeDays));
    const penalty = (l.firstPoints + l.eachFurtherPoints * (f.liquidationCount - 1)) * decay;
    points -= penalty;
    reasons.push(
      `${f.liquidationCount} liquidation(s), latest ${f.daysSinceLastLiquidation === null ? 'at an unrecorded time (taken as today)' : `${fmtDays(days)} days ago`}: −${fmt(penalty)} pts (decay ${decay.toFixed(2)})`,
    );
  } else {
    reasons.push('never liquidated');
  }
  return factor('Borrowing History', points, reasons);
}

/** The health factor with stablecoins held counted as cover (`health.healthFactor`); null without debt or when covered in full. */
export function coveredHealthFactor(f: WalletFeatures): number | null {
  if (f.healthFactor === null || f.debtUsd <= 0) return null;
  if (f.stablecoinUsd >= f.debtUsd) return null;
  return (f.healthFactor * f.debtUsd) / (f.debtUsd - f.stablecoinUsd);
}

function walletHealth(f: WalletFeatures): FactorResult {
  const h = M.health;
  const reasons: string[] = [];
  let hf: number;
  const covered = coveredHealthFactor(f);
  if (f.healthFactor === null) {
    hf = h.noDebtPoints;
    reasons.push(`no debt: ${hf} pts`);
  } else if (covered === null) {
    hf = h.noDebtPoints;
    reasons.push(`health factor ${fmt(f.healthFactor)}, debt covered in full by stablecoins held through 30 days: ${hf} pts`);
  } else {
    hf = scored(h.healthFactor, covered, `health factor ${fmt(f.healthFactor)}, with stablecoins held through 30 days as cover`, reasons);
  }
  const base = f.totalAssetUsd + f.collateralUsd;
  const leverage = base > 0 ? Math.min(1, f.debtUsd / base) : f.debtUsd > 0 ? 1 : 0;
  const free = scored(h.freeShare, 1 - leverage, 'share not owed (1 − debt / (assets + collateral))', reasons);
  return factor('Wallet Health', capped(h.healthFactorShare * hf + (1 - h.healthFactorShare) * free, f, reasons), reasons);
}

function walletComposition(f: WalletFeatures): FactorResult {
  const c = M.composition;
  const reasons: string[] = [];
  const netWorth = Math.max(0, f.totalAssetUsd + f.collateralUsd - f.debtUsd);
  const share = netWorth > 0 ? Math.min(1, Math.max(0, f.stablecoinUsd - f.debtUsd) / netWorth) : 0;
  const points =
    c.shares.netWorth * scored(c.netWorthUsd, netWorth, 'net worth USD', reasons) +
    c.shares.stablecoin * scored(c.stablecoinShare, share, 'stablecoins beyond debt, share of net worth', reasons);
  return factor('Wallet Composition', capped(points, f, reasons), reasons);
}

function interactions(f: WalletFeatures): FactorResult {
  const i = M.interactions;
  const reasons: string[] = [];
  const months = Math.min(i.monthsOfYear, f.activeMonths);
  const monthPoints = (100 * months) / i.monthsOfYear;
  const counterpartyPoints = 100 * Math.min(1, Math.log10(1 + f.counterparties) / Math.log10(1 + i.fullCounterparties));
  reasons.push(
    `${months} of the last ${i.monthsOfYear} months with dealings with other addresses: ${fmt(Math.round(monthPoints))} pts`,
    `${f.counterparties} distinct counterparties (log scale to ${i.fullCounterparties}): ${fmt(Math.round(counterpartyPoints))} pts`,
  );
  const points =
    i.shares.months * monthPoints +
    i.shares.counterparties * counterpartyPoints +
    i.shares.chains * scored(i.activeChains, f.activeChains, 'active chains', reasons);
  return factor('Interactions', capped(points, f, reasons), reasons);
}

function trust(f: WalletFeatures): FactorResult {
  const t = M.trust;
  const reasons: string[] = [`base ${t.base} pts`];
  const passport = f.passportScore !== null && f.passportScore >= t.passport.threshold ? t.passport.points : 0;
  reasons.push(
    f.passportScore === null
      ? 'no passport: +0'
      : `passport score ${fmt(f.passportScore)} (${passport > 0 ? 'at or above' : 'below'} ${t.passport.threshold}): +${passport}`,
  );
  const held = f.ensHeldDays ?? 0;
  const ens = t.ens.points * Math.min(1, held / t.ens.fullDays);
  reasons.push(
    f.ensHeldDays === null ? 'no name owned: +0' : `a name owned for ${fmtDays(held)} days (full at ${t.ens.fullDays}): +${ens.toFixed(1)}`,
  );
  const poaps = Math.min(t.poap.max, f.poapsAged);
  reasons.push(`${f.poapsAged} POAP(s) of events at least ${t.poap.minAgeDays} days old: +${poaps * t.poap.each}`);
  reasons.push(`${f.identityAttestations} attestation(s) in all; social handles and fresh ones add nothing`);
  return factor('Trust', Math.min(100, t.base + passport + ens + poaps * t.poap.each), reasons);
}

function newCredit(f: WalletFeatures, confidence: number): FactorResult {
  const reasons: string[] = [];
  const points = scored(M.newCredit.walletAgeDays, f.walletAgeDays, 'wallet age days', reasons, fmtDays);
  if (confidence < 1) {
    reasons.push(
      `thin history (${evidenceOf(f)} recorded actions, ${fmtDays(f.walletAgeDays)} days): confidence ${confidence.toFixed(2)}, score held toward ${M.thinHistory.prior}`,
    );
  }
  return factor('New Credit', points, reasons);
}

/** The wallet's recorded actions of every kind (the thin-history rule's evidence); liquidations excluded. */
export function evidenceOf(f: WalletFeatures): number {
  return f.txCount + f.transferCount + f.supplyCount + f.borrowCount + f.repayCount;
}

/**
 * Any recorded activity or holding. A liquidation alone is not evidence in the wallet's favour.
 * A wallet without any is not scored by the API (404): its score would be the floor, `emptyScore`.
 */
export function hasActivity(f: WalletFeatures): boolean {
  return (
    f.walletAgeDays > 0 ||
    f.txCount > 0 ||
    f.transferCount > 0 ||
    f.supplyCount > 0 ||
    f.borrowCount > 0 ||
    f.repayCount > 0 ||
    f.totalAssetUsd > 0 ||
    f.collateralUsd > 0
  );
}

/**
 * andromeda_1.0: features → an integer score in 300..1000 with its six factors and their reasons.
 * Pure and deterministic. Throws a RangeError for invalid features (see `validateFeatures`).
 *
 * score = 300 + 7 × Σ weight × points (points rounded per factor, so a reader can recompute it
 * from the factors), then the thin-history hold above the prior, rounded and clamped.
 */
export function scoreWallet(features: WalletFeatures): ScoreResult {
  const f = validateFeatures(features);
  const t = M.thinHistory;
  const confidence = Math.min(1, f.walletAgeDays / t.fullAgeDays) * Math.min(1, evidenceOf(f) / t.fullEvidence);
  const byLabel: Record<FactorLabel, FactorResult> = {
    'Borrowing History': borrowingHistory(f),
    'Wallet Composition': walletComposition(f),
    'Wallet Health': walletHealth(f),
    Interactions: interactions(f),
    Trust: trust(f),
    'New Credit': newCredit(f, confidence),
  };
  const factors = FACTOR_ORDER.map((label) => byLabel[label]);
  if (!hasActivity(f)) {
    return { model: MODEL_ID, score: M.emptyScore, factors, confidence: 0 };
  }
  return { model: MODEL_ID, score: combineFactors(factors, confidence), factors, confidence };
}

/**
 * The score from the factors' points: 300 + 7 × Σ weight × points, then the thin-history hold above
 * the prior, rounded and clamped. `weights` default to the table's; the evaluation's ablations pass
 * others (a factor left out, the rest renormalised).
 */
export function combineFactors(
  factors: readonly Pick<FactorResult, 'label' | 'points'>[],
  confidence: number,
  weights: Readonly<Record<FactorLabel, number>> = M.weights,
): number {
  const t = M.thinHistory;
  const weighted = factors.reduce((sum, x) => sum + weights[x.label] * x.points, 0);
  const raw = SCORE_MIN + ((SCORE_MAX - SCORE_MIN) / 100) * weighted;
  const held = raw > t.prior ? t.prior + confidence * (raw - t.prior) : raw;
  return clampScore(held);
}
