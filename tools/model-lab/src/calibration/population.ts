import { getAddress, type Address } from 'viem';
import type { AddressActivityRecord, EventStats } from '@credit/db/chain-activity-repository';
import type { CeilingWallet } from '@credit/devnet/seed/outcome-ceiling';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { aucMannWhitney, scoreRisk } from './auc';
import { decileCutPoints } from './decile-cut-points';

/** What the calibration needs of one reference-population entry of the devnet's state.json. */
export interface PopulationOutcome {
  address: Address;
  chainId: number;
  kind: 'holder' | 'borrower';
  /** The price shock's time (seconds). */
  shockAt: number;
  /** Liquidated after the shock (measured on chain by the seeding). */
  liquidated: boolean;
  /**
   * The seeding's estimate of the liquidation probability from the wallet's hidden traits and its
   * position at the features moment (`outcome.ceilingProbability`): what the best possible model
   * could know. Absent in worlds seeded without it.
   */
  ceiling?: number;
  /** The ceiling's input (`outcome.ceilingWallet`): a borrower's position at T and its traits. Absent without debt at T. */
  ceilingWallet?: CeilingWallet;
}

/**
 * Reads the outcomes out of state.json's `population` (entries written by
 * packages/devnet/src/seed/population.ts: `{address, chainId, kind, …, outcome: {shockAt,
 * healthFactorAfterShock, liquidated}}`). Throws on an entry without them: a calibration on a
 * half-read population would be silently wrong.
 */
export function populationOutcomes(population: readonly Record<string, unknown>[]): PopulationOutcome[] {
  return population.map((entry, i) => {
    const outcome = entry.outcome as
      { shockAt?: unknown; liquidated?: unknown; ceilingProbability?: unknown; ceilingWallet?: CeilingWallet | null } | undefined;
    const { address, chainId, kind } = entry;
    if (
      typeof address !== 'string' ||
      typeof chainId !== 'number' ||
      (kind !== 'holder' && kind !== 'borrower') ||
      typeof outcome?.shockAt !== 'number' ||
      typeof outcome.liquidated !== 'boolean'
    ) {
      throw new Error(`population entry ${i} has no address / chainId / kind / outcome: ${JSON.stringify(entry)}`);
    }
    return {
      address: getAddress(address),
      chainId,
      kind,
      shockAt: outcome.shockAt,
      liquidated: outcome.liquidated,
      ...(typeof outcome.ceilingProbability === 'number' ? { ceiling: outcome.ceilingProbability } : {}),
      ...(outcome.ceilingWallet ? { ceilingWallet: outcome.ceilingWallet } : {}),
    };
  });
}

const NO_EVENTS: EventStats = { count: 0, first: null, last: null };

/**
 * The activity rows with every LIQUIDATION recorded at or after `fromSeconds` removed: a partial
 * undo of the outcome's leak into the features (the shock's liquidations are what the AUC measures).
 *
 * Event stats keep only a count and the first / last times, so a row is handled exactly only when
 * its liquidations are all before the cut (kept) or all at/after it (dropped); a row with some on
 * each side cannot be split and throws rather than guess. The reference population has no
 * liquidation before its shock, so it never throws there.
 */
export function withoutLiquidationsFrom(activity: readonly AddressActivityRecord[], fromSeconds: number): AddressActivityRecord[] {
  const fromMs = fromSeconds * 1000;
  return activity.map((row) => {
    const { liquidation } = row;
    if (liquidation.count === 0 || liquidation.last === null || liquidation.last.getTime() < fromMs) return row;
    if (liquidation.first !== null && liquidation.first.getTime() >= fromMs) return { ...row, liquidation: NO_EVENTS };
    throw new Error(`chain ${row.chainId} ${row.address}: liquidations on both sides of ${fromSeconds}; the stats cannot split them`);
  });
}

export interface CalibrationMember {
  address: Address;
  features: WalletFeatures;
  liquidated: boolean;
  /** `PopulationOutcome.ceiling`, when the world has it. */
  ceiling?: number;
  /** `PopulationOutcome.ceilingWallet`, when the wallet had debt at T. */
  ceilingWallet?: CeilingWallet;
}

export interface CalibrationResult {
  population: number;
  liquidated: number;
  /** The nine decile cut-points of the population's scores (`decileCutPoints`). */
  cutPoints: number[];
  /** AUC of 1000 − score against `liquidated` (Mann–Whitney); null when one class is empty. */
  auc: number | null;
  /** Mean score of the liquidated and of the others. */
  meanScoreLiquidated: number | null;
  meanScoreOthers: number | null;
  scores: { address: Address; score: number; liquidated: boolean }[];
  /**
   * Per factor: the AUC of (100 − the factor's points) against `liquidated`, i.e. how well that
   * factor alone ranks the outcome (0.5 = not at all); null when one class is empty.
   */
  factorAuc: Record<string, number | null>;
}

const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Scores every member with `scoreWallet`, then the cut-points and the AUC. Pure. */
export function calibrate(members: readonly CalibrationMember[]): CalibrationResult {
  const results = members.map((m) => scoreWallet(m.features));
  const scores = members.map((m, i) => ({ address: m.address, score: results[i]!.score, liquidated: m.liquidated }));
  const positives = scores.filter((s) => s.liquidated);
  const both = positives.length > 0 && positives.length < scores.length;
  const outcomes = scores.map((s) => s.liquidated);
  const factorAuc: Record<string, number | null> = {};
  for (const [k, factor] of (results[0]?.factors ?? []).entries()) {
    factorAuc[factor.label] = both
      ? aucMannWhitney(
          results.map((r) => 100 - r.factors[k]!.points),
          outcomes,
        )
      : null;
  }
  return {
    population: scores.length,
    liquidated: positives.length,
    cutPoints: decileCutPoints(scores.map((s) => s.score)),
    auc: both
      ? aucMannWhitney(
          scores.map((s) => scoreRisk(s.score)),
          scores.map((s) => s.liquidated),
        )
      : null,
    meanScoreLiquidated: mean(positives.map((s) => s.score)),
    meanScoreOthers: mean(scores.filter((s) => !s.liquidated).map((s) => s.score)),
    scores,
    factorAuc,
  };
}
