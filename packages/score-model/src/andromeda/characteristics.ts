import type { FactorLabel } from '@credit/contracts/schemas/score';
import type { WalletFeatures } from './features';

// The characteristics andromeda_1.0 scores: each a figure of the wallet's features cut into bins.
// Every one is oriented so that a higher figure is the safer one, and the fit (`pnpm model:fit`,
// tools/model-lab) is constrained to give a safer bin at least the points of the bin below it:
// more of a good thing never lowers a score. Their points per bin are in ./fitted-table.ts.

/** The scorecard a wallet is scored on: it owes something at the moment of scoring, or it does not. */
export type Segment = 'debt' | 'noDebt';
export const SEGMENTS: readonly Segment[] = ['debt', 'noDebt'];

export interface Characteristic {
  /** Its key in the fitted table. */
  readonly id: CharacteristicId;
  readonly factor: FactorLabel;
  /** The segments whose scorecards have it (a health factor exists only with debt). */
  readonly segments: readonly Segment[];
  /** What the figure is, for a reason: "<name> <value> → bin [a, b): +n pts". */
  readonly name: string;
  readonly value: (f: WalletFeatures) => number;
  /** The figure as a reason shows it (default: up to two decimals; day counts in whole days, so a reason does not change between two reads a minute apart). */
  readonly show?: (value: number) => string;
  /** Ascending inner edges: bin 0 is below edges[0], bin k is [edges[k − 1], edges[k]), the last is at or above the last edge. */
  readonly edges: readonly number[];
}

/** A liquidation that never happened reads as this many days ago: safer than any recorded one. */
export const NEVER_LIQUIDATED_DAYS = 100_000;

/** The health factor with the wallet's stablecoins (held through 30 days) counted as cover; null when they cover the debt in full or there is none. */
export function coveredHealthFactor(f: WalletFeatures): number | null {
  if (f.healthFactor === null || f.debtUsd <= 0) return null;
  if (f.stablecoinUsd >= f.debtUsd) return null;
  return (f.healthFactor * f.debtUsd) / (f.debtUsd - f.stablecoinUsd);
}

/** The covered health factor of debt the wallet's stablecoins cover in full: above every bin edge. */
const COVERED_IN_FULL = 1_000;
const wholeDays = (v: number) => String(Math.floor(v));

const netWorth = (f: WalletFeatures) => Math.max(0, f.totalAssetUsd + f.collateralUsd - f.debtUsd);

export const CHARACTERISTICS = [
  {
    id: 'coveredHealthFactor',
    factor: 'Wallet Health',
    segments: ['debt'],
    name: 'health factor with stablecoins held through 30 days as cover',
    // debt covered in full by stablecoins: the top bin
    value: (f) => coveredHealthFactor(f) ?? COVERED_IN_FULL,
    show: (v) => (v >= COVERED_IN_FULL ? 'covered in full' : v.toFixed(2)),
    edges: [1.05, 1.1, 1.2, 1.3, 1.45, 1.6, 1.8, 2.1, 2.5, 3, 5],
  },
  {
    id: 'freeShare',
    factor: 'Wallet Health',
    segments: ['debt'],
    name: 'share not owed (1 − debt / (assets + collateral))',
    value: (f) => {
      const base = f.totalAssetUsd + f.collateralUsd;
      return base > 0 ? 1 - Math.min(1, f.debtUsd / base) : 0;
    },
    edges: [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  },
  {
    id: 'netWorthUsd',
    factor: 'Wallet Composition',
    segments: ['debt', 'noDebt'],
    name: 'net worth USD (assets + collateral − debt, at their lowest over 30 days)',
    value: netWorth,
    edges: [100, 1_000, 10_000, 30_000, 100_000, 300_000, 1_000_000],
  },
  {
    id: 'stablecoinShare',
    factor: 'Wallet Composition',
    segments: ['debt', 'noDebt'],
    name: 'stablecoins beyond debt, share of net worth',
    value: (f) => {
      const worth = netWorth(f);
      return worth > 0 ? Math.min(1, Math.max(0, f.stablecoinUsd - f.debtUsd) / worth) : 0;
    },
    edges: [0.05, 0.1, 0.25, 0.5],
  },
  {
    id: 'repaidUsdDays',
    factor: 'Borrowing History',
    segments: ['debt', 'noDebt'],
    name: 'USD-days owed and repaid by the wallet itself',
    value: (f) => f.repaidUsdDays,
    edges: [10_000, 100_000, 1_000_000, 3_000_000, 10_000_000, 30_000_000],
  },
  {
    id: 'daysSinceLiquidation',
    factor: 'Borrowing History',
    segments: ['debt', 'noDebt'],
    name: 'days since the last liquidation',
    show: (v: number) => (v >= NEVER_LIQUIDATED_DAYS ? 'never' : wholeDays(v)),
    value: (f) => (f.liquidationCount === 0 ? NEVER_LIQUIDATED_DAYS : (f.daysSinceLastLiquidation ?? 0)),
    edges: [90, 365, 730, NEVER_LIQUIDATED_DAYS],
  },
  {
    id: 'activeMonths',
    factor: 'Interactions',
    segments: ['debt', 'noDebt'],
    name: 'months of the last 12 with dealings with other addresses',
    value: (f) => Math.min(12, f.activeMonths),
    edges: [2, 4, 6, 9, 12],
  },
  {
    id: 'counterparties',
    factor: 'Interactions',
    segments: ['debt', 'noDebt'],
    name: 'distinct counterparties',
    value: (f) => f.counterparties,
    edges: [2, 5, 10, 20],
  },
  {
    id: 'passport',
    factor: 'Trust',
    segments: ['debt', 'noDebt'],
    name: 'passport score (its threshold of verified stamps is 20)',
    value: (f) => f.passportScore ?? 0,
    edges: [20],
  },
  {
    id: 'ensHeldDays',
    factor: 'Trust',
    segments: ['debt', 'noDebt'],
    name: 'days the wallet has owned its longest-held name',
    show: wholeDays,
    value: (f) => f.ensHeldDays ?? 0,
    edges: [90, 365],
  },
  {
    id: 'poapsAged',
    factor: 'Trust',
    segments: ['debt', 'noDebt'],
    name: 'POAPs of events at least a year old',
    value: (f) => f.poapsAged,
    edges: [1, 2],
  },
  {
    id: 'walletAgeDays',
    factor: 'New Credit',
    segments: ['debt', 'noDebt'],
    name: 'wallet age days',
    show: wholeDays,
    value: (f) => f.walletAgeDays,
    edges: [90, 180, 365, 730, 1_460],
  },
] as const satisfies readonly (Omit<Characteristic, 'id'> & { id: string })[];

export type CharacteristicId = (typeof CHARACTERISTICS)[number]['id'];

/** The bin of `value` among `edges` (0 below the first edge). */
export function binOf(edges: readonly number[], value: number): number {
  let bin = 0;
  for (const edge of edges) if (value >= edge) bin++;
  return bin;
}

/** The characteristics of a segment's scorecard, in the table's order. */
export const characteristicsOf = (segment: Segment): readonly Characteristic[] =>
  (CHARACTERISTICS as readonly Characteristic[]).filter((c) => c.segments.includes(segment));

/** The segment a wallet is scored in. */
export const segmentOf = (f: WalletFeatures): Segment => (f.debtUsd > 0 ? 'debt' : 'noDebt');

/** A segment's scorecard: its base score and each characteristic's points per bin (./fitted-table.ts). */
export interface SegmentCard {
  readonly base: number;
  readonly points: Readonly<Partial<Record<CharacteristicId, readonly number[]>>>;
}
export type Scorecards = Readonly<Record<Segment, SegmentCard>>;
