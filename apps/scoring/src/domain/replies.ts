import type { Address } from 'viem';
import { MODEL_VERSION } from '@credit/contracts/schemas/common';
import { DomainError } from '@credit/contracts/errors';
import type { AggregatedScoreResult, ScoreFactor, ScoreResult } from '@credit/contracts/schemas/score';
import { byPointsLost } from '@credit/score-model/andromeda/factors';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import { isScored, type ScoredWallet, type WalletOutcome } from './wallet-outcome';

/** The decile of a score in andromeda_1.0's reference population (docs/MODEL.md). */
export const decileOfScore = (score: number): number => decileOf(score, ANDROMEDA_1_0.decileCutPoints);

/**
 * docs/MODEL.md factors: `{label, rating, description}` in adverse-action order (the factor that
 * costs the score most first, ties in the model's order); the description carries the points,
 * the score points the factor costs, and the reasons, so a reader can recompute the score from
 * docs/MODEL.md.
 */
export function replyFactors(wallet: ScoredWallet): ScoreFactor[] {
  return byPointsLost(wallet.factors).map((f) => ({ label: f.label, rating: f.rating, description: factorDescription(f) }));
}

/** `"<points> pts, <lost> score points below full marks: <reasons>"`. */
export function factorDescription(f: Pick<ScoredWallet['factors'][number], 'points' | 'pointsLost' | 'reasons'>): string {
  const head = `${f.points} pts, ${f.pointsLost} score points below full marks`;
  return f.reasons.length > 0 ? `${head}: ${f.reasons.join('; ')}` : head;
}

/**
 * docs/API.md §2.1, single-address form. `score` defaults to the wallet's own (the enhanced score passes
 * its boosted one); `timestamp` is when the wallet was scored (`computedAt`, cached with it), and
 * `factors` is there only when asked for.
 */
export function scoreResult(address: Address, wallet: ScoredWallet, includeFactors: boolean, score = wallet.score): ScoreResult {
  return {
    address,
    score,
    decile: decileOfScore(score),
    range: rangeOf(score),
    model_version: MODEL_VERSION,
    timestamp: wallet.computedAt,
    ...(includeFactors ? { factors: replyFactors(wallet) } : {}),
  };
}

/** docs/API.md §2.1, aggregated form over wallets already scored. */
export function aggregatedResult(scored: readonly (readonly [Address, ScoredWallet])[]): AggregatedScoreResult {
  const score = Math.round(scored.reduce((sum, [, w]) => sum + w.score, 0) / scored.length);
  return {
    address: scored.map(([address]) => address),
    score,
    decile: decileOfScore(score),
    range: rangeOf(score),
    model_version: MODEL_VERSION,
    // the latest calculation among the inputs: the moment this mean could first be taken
    timestamp: scored.map(([, w]) => w.computedAt).reduce((a, b) => (b > a ? b : a)),
  };
}

export function noActivityError(address: Address): DomainError {
  return new DomainError('no_activity', `No on-chain activity found for ${address}`);
}

/** The single-address subjects: the wallet's score, or 404 `no_activity`. */
export function scoredOrThrow(address: Address, outcome: WalletOutcome | undefined): ScoredWallet {
  if (!outcome || !isScored(outcome)) throw noActivityError(address);
  return outcome;
}
