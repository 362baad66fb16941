import {
  binOf,
  characteristicsOf,
  segmentOf,
  type Characteristic,
  type CharacteristicId,
  type Scorecards,
  type SegmentCard,
} from '@credit/score-model/andromeda/characteristics';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { probabilityOf, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { decileCutPoints, decileUnder } from '../calibration/decile-cut-points';
import { fitMonotoneLogistic, type MonotoneFit } from './monotone-logistic';

/** One training wallet: its features at T and whether it was liquidated in the window. */
export interface TrainingRow {
  world: string;
  features: WalletFeatures;
  liquidated: boolean;
}

/** Score points per unit of log-odds: 30 points double the odds. */
const POINTS_PER_LOGIT = ANDROMEDA_1_0.scale.pointsToDoubleOdds / Math.LN2;
const round1 = (x: number) => Math.round(x * 10) / 10;

/** The cumulative bin indicators of a segment's characteristics: column (c, k) = 1 when c's bin ≥ k. */
function design(characteristics: readonly Characteristic[], rows: readonly WalletFeatures[]): Float64Array[] {
  return characteristics.flatMap((c) => {
    const bins = rows.map((f) => binOf(c.edges, c.value(f)));
    return c.edges.map((_, k) => Float64Array.from(bins, (bin) => (bin >= k + 1 ? 1 : 0)));
  });
}

/** A fit's points per bin: −(points per logit) × the cumulative coefficients (bin 0 earns 0). */
function pointsOf(characteristics: readonly Characteristic[], fit: MonotoneFit): Partial<Record<CharacteristicId, number[]>> {
  let j = 0;
  const points: Partial<Record<CharacteristicId, number[]>> = {};
  for (const c of characteristics) {
    let cumulative = 0;
    const table = [0];
    for (let k = 0; k < c.edges.length; k++) {
      cumulative += fit.coefficients[j++]!;
      table.push(round1(-POINTS_PER_LOGIT * cumulative) + 0);
    }
    points[c.id] = table;
  }
  return points;
}

/** The debt segment's monotone binned logistic regression on the training wallets with debt. */
export function fitDebtCard(rows: readonly TrainingRow[], lambda: number): { card: SegmentCard; fit: MonotoneFit } {
  const characteristics = characteristicsOf('debt');
  const fit = fitMonotoneLogistic(
    design(
      characteristics,
      rows.map((r) => r.features),
    ),
    rows.map((r) => r.liquidated),
    { lambda },
  );
  return {
    card: { base: round1(ANDROMEDA_1_0.scale.evenOddsScore - POINTS_PER_LOGIT * fit.intercept), points: pointsOf(characteristics, fit) },
    fit,
  };
}

/**
 * The no-debt segment. Without a loan there is nothing to liquidate in the window, so its wallets
 * give no events to fit: each characteristic they share with the debt segment (what the wallet
 * would bring to a loan: its record, its worth, its dealings, its age) keeps the debt segment's
 * points, and the base is set so that the segment's mean probability is its observed rate with a
 * Jeffreys prior, (liquidated + ½) / (wallets + 1), and never below the debt card's base plus its
 * best Wallet Health points (a loan never scores above no loan).
 */
export function noDebtCard(rows: readonly TrainingRow[], debt: SegmentCard): SegmentCard {
  const points = Object.fromEntries(characteristicsOf('noDebt').map((c) => [c.id, debt.points[c.id]!])) as SegmentCard['points'];
  const events = rows.filter((r) => r.liquidated).length;
  const target = (events + 0.5) / (rows.length + 1);
  const sums = rows.map((r) =>
    characteristicsOf('noDebt').reduce((sum, c) => sum + points[c.id]![binOf(c.edges, c.value(r.features))]!, 0),
  );
  const meanProbability = (base: number) => sums.reduce((sum, s) => sum + probabilityOf(base + s), 0) / sums.length;
  let [lo, hi] = [0, 2_000];
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (meanProbability(mid) > target) lo = mid;
    else hi = mid;
  }
  // a loan never scores above none: the base is at least the debt card's base plus its best Wallet Health
  const bestHealth = characteristicsOf('debt')
    .filter((c) => c.factor === 'Wallet Health')
    .reduce((sum, c) => sum + Math.max(...debt.points[c.id]!), 0);
  return { base: round1(Math.max((lo + hi) / 2, debt.base + bestHealth)), points };
}

/** Both scorecards from the training rows. */
export function fitScorecards(rows: readonly TrainingRow[], lambda: number): Scorecards {
  const debtRows = rows.filter((r) => segmentOf(r.features) === 'debt');
  const debt = fitDebtCard(debtRows, lambda).card;
  return {
    debt,
    noDebt: noDebtCard(
      rows.filter((r) => segmentOf(r.features) === 'noDebt'),
      debt,
    ),
  };
}

/** Mean log-loss of the debt card on rows it was not fitted on, one training world left out at a time. */
export function leaveOneWorldOut(rows: readonly TrainingRow[], lambda: number): number {
  const debtRows = rows.filter((r) => segmentOf(r.features) === 'debt');
  let loss = 0;
  for (const world of new Set(debtRows.map((r) => r.world))) {
    const card = fitDebtCard(
      debtRows.filter((r) => r.world !== world),
      lambda,
    ).card;
    const cards: Scorecards = { debt: card, noDebt: card };
    for (const r of debtRows.filter((x) => x.world === world)) {
      const p = Math.min(1 - 1e-9, Math.max(1e-9, scoreWallet(r.features, cards).probability));
      loss -= r.liquidated ? Math.log(p) : Math.log(1 - p);
    }
  }
  return loss / debtRows.length;
}

/** Deciles measured at T on the training population: the nine cut-points and each decile's stated probability. */
export function decilesOf(rows: readonly TrainingRow[], cards: Scorecards): { decileCutPoints: number[]; decileRates: number[] } {
  const scores = rows.map((r) => scoreWallet(r.features, cards).score);
  const cuts = decileCutPoints(scores);
  const sums = Array.from({ length: 10 }, () => ({ n: 0, p: 0 }));
  for (const score of scores) {
    const d = sums[decileUnder(cuts, score) - 1]!;
    d.n += 1;
    d.p += probabilityOf(score);
  }
  return { decileCutPoints: cuts, decileRates: sums.map((d) => (d.n > 0 ? Math.round((d.p / d.n) * 10_000) / 10_000 : 0)) };
}
