import type { RangeLabel } from '@credit/contracts/schemas/common';
import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import { SCORE_MAX, SCORE_MIN, clampScore, rangeOf } from '../score-bands';
import { validateFeatures, type WalletFeatures } from './features';

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
   * Factor weights (sum 1), set on the devnet's reference population (docs/MODEL.md).
   * Wallet Health leads: the live position's distance from liquidation is the nearest leading
   * indicator of the outcome the model is judged on (a later liquidation); alone it ranks that
   * outcome best. Borrowing History is next: repayments and liquidations are the direct record of
   * how the wallet handles credit. Composition (loss-absorbing buffer), Interactions (a real,
   * continuing participant) and New Credit (length of history) support them. Trust is small: no
   * attestation source exists yet, so today it shifts every wallet alike and carries no ranking.
   */
  weights: {
    'Wallet Health': 0.4,
    'Borrowing History': 0.25,
    'Wallet Composition': 0.1,
    Interactions: 0.1,
    'New Credit': 0.1,
    Trust: 0.05,
  } satisfies Record<FactorLabel, number>,

  borrowing: {
    /** Never borrowed: no credit record either way, so a neutral middle. */
    noBorrowingPoints: 50,
    /** Loans repaid = min(repayCount, borrowCount): depth of the repayment record. */
    repaidLoans: [
      { atLeast: 0, points: 10 },
      { atLeast: 1, points: 50 },
      { atLeast: 3, points: 70 },
      { atLeast: 6, points: 85 },
      { atLeast: 12, points: 100 },
    ] as BucketTable,
    /** Record = depthShare × depth points + (1 − depthShare) × 100 × min(1, repaid / borrowed). */
    depthShare: 0.6,
    /**
     * Liquidation penalty = (first + each × (count − 1)) × decay, decay = max(floor, 2^(−days / halfLife)).
     * A first liquidation costs half the factor; a year halves it; a quarter of it never fades,
     * because a wallet that was once liquidated stays riskier than one that never was. A count with
     * no recorded time is treated as today (decay 1).
     */
    liquidation: { firstPoints: 50, eachFurtherPoints: 15, halfLifeDays: 365, decayFloor: 0.25 },
  },

  health: {
    /** Health factor (Aave: liquidatable below 1). */
    healthFactor: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 10 },
      { atLeast: 1.1, points: 25 },
      { atLeast: 1.25, points: 40 },
      { atLeast: 1.5, points: 55 },
      { atLeast: 2, points: 70 },
      { atLeast: 3, points: 85 },
      { atLeast: 5, points: 100 },
    ] as BucketTable,
    /** No debt: nothing to liquidate, but no proof of managing a position either. */
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
     * Stablecoin share of everything held (wallet assets + lending collateral): value that does not
     * fall with the price shocks that liquidate. Collateral counts because it is the wallet's own
     * holding most exposed to such a shock.
     */
    stablecoinShare: [
      { atLeast: 0, points: 20 },
      { atLeast: 0.1, points: 50 },
      { atLeast: 0.25, points: 80 },
      { atLeast: 0.5, points: 100 },
    ] as BucketTable,
    assetCount: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 40 },
      { atLeast: 2, points: 60 },
      { atLeast: 3, points: 80 },
      { atLeast: 5, points: 100 },
    ] as BucketTable,
    /** Size matters most (it absorbs losses); stability next; diversity least. */
    shares: { netWorth: 0.5, stablecoin: 0.3, assets: 0.2 },
  },

  interactions: {
    txCount: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 20 },
      { atLeast: 5, points: 40 },
      { atLeast: 20, points: 60 },
      { atLeast: 50, points: 80 },
      { atLeast: 200, points: 100 },
    ] as BucketTable,
    transferCount: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 25 },
      { atLeast: 10, points: 50 },
      { atLeast: 50, points: 75 },
      { atLeast: 200, points: 100 },
    ] as BucketTable,
    activeChains: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 50 },
      { atLeast: 2, points: 80 },
      { atLeast: 3, points: 100 },
    ] as BucketTable,
    supplyCount: [
      { atLeast: 0, points: 0 },
      { atLeast: 1, points: 50 },
      { atLeast: 5, points: 80 },
      { atLeast: 20, points: 100 },
    ] as BucketTable,
    /** Days since last activity: fewer is better, so points fall down the table. */
    daysSinceLastActivity: [
      { atLeast: 0, points: 100 },
      { atLeast: 7, points: 85 },
      { atLeast: 30, points: 65 },
      { atLeast: 90, points: 40 },
      { atLeast: 365, points: 15 },
    ] as BucketTable,
    /** Recency leads (a dormant wallet tells little about today); the counts share the rest. */
    shares: { recency: 0.3, txCount: 0.25, transfers: 0.15, chains: 0.15, supply: 0.15 },
  },

  trust: {
    /** Zero attestations is the norm until the identity service exists: neutral-low, not zero. */
    attestations: [
      { atLeast: 0, points: 40 },
      { atLeast: 1, points: 70 },
      { atLeast: 2, points: 85 },
      { atLeast: 3, points: 100 },
    ] as BucketTable,
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
   * Thin histories. confidence = min(1, age / fullAgeDays) × min(1, txCount / fullTxCount). Above
   * the prior, a score keeps only `confidence` of its distance to it: little evidence cannot earn a
   * good score. At or below the prior it is left alone: little evidence cannot lift a bad one.
   * (One-sided, so more age or more transactions never lower a score.) The prior sits in `low`,
   * 20 under `fair`: an unknown wallet is lent to as a below-average one.
   */
  thinHistory: { prior: 620, fullAgeDays: 90, fullTxCount: 3 },

  /** No recorded activity at all (no age, transactions, transfers, lending, holdings): the floor. */
  emptyScore: SCORE_MIN,

  /**
   * Decile cut-points (docs/MODEL.md): the nine scores that split the reference world's population
   * (packages/devnet/src/seed/reference-world.ts), scored at the world's head, into tenths.
   * Measured by `pnpm model:card` (docs/MODEL.md); use with `decileOf(score, cutPoints)`.
   */
  decileCutPoints: [585, 649, 709, 737, 756, 768, 781, 807, 826] as readonly number[],
} as const;

export interface FactorResult {
  label: FactorLabel;
  /** 0..100, an integer. */
  points: number;
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
 * Days are measured to the second (`(to − from) / 86,400`), so one figure reads the same whether
 * it is a whole number or a second past it: always two decimals. (A head one second later — a
 * restarted devnet, a new block — must not turn "589" into "589.00" in a reason.)
 */
function fmtDays(days: number): string {
  return days.toFixed(2);
}

/** Scores one bucketed figure and says so: "<name> 12 → bucket ≥ 12: 100 pts". */
function scored(table: BucketTable, value: number, name: string, reasons: string[], show: (value: number) => string = fmt): number {
  const row = bucketOf(table, value);
  reasons.push(`${name} ${show(value)} → bucket ≥ ${fmt(row.atLeast)}: ${row.points} pts`);
  return row.points;
}

function factor(label: FactorLabel, exactPoints: number, reasons: string[]): FactorResult {
  const points = Math.min(100, Math.max(0, Math.round(exactPoints)));
  return { label, points, rating: rangeOf(SCORE_MIN + 7 * points), reasons };
}

function borrowingHistory(f: WalletFeatures): FactorResult {
  const b = M.borrowing;
  const reasons: string[] = [];
  let points: number;
  if (f.borrowCount === 0) {
    points = b.noBorrowingPoints;
    reasons.push(`no loans taken: neutral ${points} pts`);
  } else {
    const repaid = Math.min(f.repayCount, f.borrowCount);
    const ratio = repaid / f.borrowCount;
    const depth = scored(b.repaidLoans, repaid, 'loans repaid', reasons);
    points = b.depthShare * depth + (1 - b.depthShare) * 100 * ratio;
    reasons.push(`${repaid} of ${f.borrowCount} loans repaid (${Math.round(ratio * 100)}%)`);
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

function walletHealth(f: WalletFeatures): FactorResult {
  const h = M.health;
  const reasons: string[] = [];
  let hf: number;
  if (f.healthFactor === null) {
    hf = h.noDebtPoints;
    reasons.push(`no debt: ${hf} pts`);
  } else {
    hf = scored(h.healthFactor, f.healthFactor, 'health factor', reasons);
  }
  const base = f.totalAssetUsd + f.collateralUsd;
  const leverage = base > 0 ? Math.min(1, f.debtUsd / base) : f.debtUsd > 0 ? 1 : 0;
  const free = scored(h.freeShare, 1 - leverage, 'share not owed (1 − debt / (assets + collateral))', reasons);
  return factor('Wallet Health', h.healthFactorShare * hf + (1 - h.healthFactorShare) * free, reasons);
}

function walletComposition(f: WalletFeatures): FactorResult {
  const c = M.composition;
  const reasons: string[] = [];
  const netWorth = Math.max(0, f.totalAssetUsd + f.collateralUsd - f.debtUsd);
  const held = f.totalAssetUsd + f.collateralUsd;
  const share = held > 0 ? Math.min(1, f.stablecoinUsd / held) : 0;
  const points =
    c.shares.netWorth * scored(c.netWorthUsd, netWorth, 'net worth USD', reasons) +
    c.shares.stablecoin * scored(c.stablecoinShare, share, 'stablecoin share', reasons) +
    c.shares.assets * scored(c.assetCount, f.assetCount, 'assets held', reasons);
  return factor('Wallet Composition', points, reasons);
}

function interactions(f: WalletFeatures): FactorResult {
  const i = M.interactions;
  const reasons: string[] = [];
  const points =
    i.shares.recency * scored(i.daysSinceLastActivity, f.daysSinceLastActivity, 'days since last activity', reasons, fmtDays) +
    i.shares.txCount * scored(i.txCount, f.txCount, 'transactions sent', reasons) +
    i.shares.transfers * scored(i.transferCount, f.transferCount, 'token transfers', reasons) +
    i.shares.chains * scored(i.activeChains, f.activeChains, 'active chains', reasons) +
    i.shares.supply * scored(i.supplyCount, f.supplyCount, 'lending supplies', reasons);
  return factor('Interactions', points, reasons);
}

function trust(f: WalletFeatures): FactorResult {
  const reasons: string[] = [];
  return factor('Trust', scored(M.trust.attestations, f.identityAttestations, 'identity attestations', reasons), reasons);
}

function newCredit(f: WalletFeatures, confidence: number): FactorResult {
  const reasons: string[] = [];
  const points = scored(M.newCredit.walletAgeDays, f.walletAgeDays, 'wallet age days', reasons, fmtDays);
  if (confidence < 1) {
    reasons.push(
      `thin history (${f.txCount} tx, ${fmtDays(f.walletAgeDays)} days): confidence ${confidence.toFixed(2)}, score held toward ${M.thinHistory.prior}`,
    );
  }
  return factor('New Credit', points, reasons);
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
  const confidence = Math.min(1, f.walletAgeDays / t.fullAgeDays) * Math.min(1, f.txCount / t.fullTxCount);
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
  const weighted = factors.reduce((sum, x) => sum + M.weights[x.label] * x.points, 0);
  const raw = SCORE_MIN + ((SCORE_MAX - SCORE_MIN) / 100) * weighted;
  const held = raw > t.prior ? t.prior + confidence * (raw - t.prior) : raw;
  return { model: MODEL_ID, score: clampScore(held), factors, confidence };
}
