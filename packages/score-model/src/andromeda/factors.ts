import type { RangeLabel } from '@credit/contracts/schemas/common';
import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import { SCORE_MAX, SCORE_MIN, rangeOf } from '../score-bands';
import { LOAN_MIN_USD_DAYS, type WalletFeatures } from './features';
import { ANDROMEDA_1_0, type Bucket, type BucketTable } from './model-table';

// The six factors of andromeda_1.0: each turns the features into 0..100 points by the tables of
// ./model-table.ts and says which bucket fired for which figure (the reasons the API returns).

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

export function borrowingHistory(f: WalletFeatures): FactorResult {
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

export function walletHealth(f: WalletFeatures): FactorResult {
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

export function walletComposition(f: WalletFeatures): FactorResult {
  const c = M.composition;
  const reasons: string[] = [];
  const netWorth = Math.max(0, f.totalAssetUsd + f.collateralUsd - f.debtUsd);
  const share = netWorth > 0 ? Math.min(1, Math.max(0, f.stablecoinUsd - f.debtUsd) / netWorth) : 0;
  const points =
    c.shares.netWorth * scored(c.netWorthUsd, netWorth, 'net worth USD', reasons) +
    c.shares.stablecoin * scored(c.stablecoinShare, share, 'stablecoins beyond debt, share of net worth', reasons);
  return factor('Wallet Composition', capped(points, f, reasons), reasons);
}

export function interactions(f: WalletFeatures): FactorResult {
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

export function trust(f: WalletFeatures): FactorResult {
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

export function newCredit(f: WalletFeatures, confidence: number): FactorResult {
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
