import type { RangeLabel } from '@credit/contracts/schemas/common';
import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import { SCORE_MIN, rangeOf } from '../score-bands';
import { binOf, characteristicsOf, type Characteristic, type Scorecards, type Segment } from './characteristics';
import type { WalletFeatures } from './features';
import { ANDROMEDA_1_0 } from './model-table';

// The six factors of andromeda_1.0: each is the sum of its characteristics' points in the wallet's
// segment (./characteristics.ts, points from ./fitted-table.ts), with the bin that fired for each
// figure as its reasons (what the API returns with `include_factors`).

export interface FactorResult {
  label: FactorLabel;
  /** 0..100: where the factor's score points stand between its worst and its best in the segment. */
  points: number;
  /** Score points the factor adds to the segment's base. */
  scorePoints: number;
  /** Score points below the factor's best in the segment: what it costs the score. */
  pointsLost: number;
  /** The range of the factor's projection onto 300..1000 (300 + 7 × points). */
  rating: RangeLabel;
  /** Which bin fired for which figure, and what it adds. */
  reasons: string[];
}

/** The contracts' factor list (docs/MODEL.md), in the order the API lists them. */
export const FACTOR_ORDER: readonly FactorLabel[] = FACTOR_LABELS;

const round1 = (x: number) => Math.round(x * 10) / 10;

function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A bin in words: "[1.3, 1.45)", "< 1.05", "≥ 5". */
export function binText(edges: readonly number[], bin: number): string {
  if (bin === 0) return `< ${fmt(edges[0]!)}`;
  if (bin === edges.length) return `≥ ${fmt(edges[bin - 1]!)}`;
  return `[${fmt(edges[bin - 1]!)}, ${fmt(edges[bin]!)})`;
}

/** One characteristic scored: its bin's points and the reason that says so. */
function scoredCharacteristic(
  table: readonly number[],
  c: Characteristic,
  f: WalletFeatures,
): { points: number; best: number; reason: string } {
  const value = c.value(f);
  const bin = binOf(c.edges, value);
  const points = table[bin]!;
  const shown = c.show ? c.show(value) : fmt(Math.round(value * 100) / 100);
  return { points, best: Math.max(...table), reason: `${c.name} ${shown} → bin ${binText(c.edges, bin)}: +${String(points)} pts` };
}

/**
 * The factors of a wallet in its segment, in the model's order. A factor without a characteristic
 * in the segment (Wallet Health without debt) is at its best: there is nothing for it to cost.
 */
export function factorsOf(segment: Segment, f: WalletFeatures, cards: Scorecards = ANDROMEDA_1_0.segments): FactorResult[] {
  const characteristics = characteristicsOf(segment);
  return FACTOR_ORDER.map((label) => {
    const mine = characteristics.filter((c) => c.factor === label);
    const scored = mine.map((c) => scoredCharacteristic(cards[segment].points[c.id]!, c, f));
    const scorePoints = round1(scored.reduce((sum, s) => sum + s.points, 0));
    const best = round1(scored.reduce((sum, s) => sum + s.best, 0));
    const points = best > 0 ? Math.round((100 * scorePoints) / best) : 100;
    const reasons = scored.map((s) => s.reason);
    if (mine.length === 0) reasons.push('no debt: nothing to liquidate');
    return { label, points, scorePoints, pointsLost: round1(best - scorePoints), rating: rangeOf(SCORE_MIN + 7 * points), reasons };
  });
}

/**
 * The factors in adverse-action order: the one that costs the score most first (`pointsLost`),
 * ties in the model's order. What a lender tells an applicant first is what held the score down most.
 */
export function byPointsLost<F extends Pick<FactorResult, 'label' | 'pointsLost'>>(factors: readonly F[]): F[] {
  return [...factors].sort((a, b) => b.pointsLost - a.pointsLost || FACTOR_ORDER.indexOf(a.label) - FACTOR_ORDER.indexOf(b.label));
}

/** The recovery cap after a liquidation (`recovery`); null when never liquidated. */
export function recoveryCap(f: WalletFeatures): number | null {
  if (f.liquidationCount === 0) return null;
  return SCORE_MIN + 700 * (1 - 2 ** (-(f.daysSinceLastLiquidation ?? 0) / ANDROMEDA_1_0.recovery.halfLifeDays));
}

/** True when the wallet has too little history to be scored above `thin.maxScore`. */
export function isThin(f: WalletFeatures): boolean {
  return f.walletAgeDays < ANDROMEDA_1_0.thin.minAgeDays;
}
