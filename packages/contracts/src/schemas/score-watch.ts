import { z } from 'zod';
import { ChecksummedAddress, RangeLabel } from './common';
import { Decile, FACTOR_LABELS, MAX_BATCH_ADDRESSES, ScoreValue } from './score';

/**
 * `credit.score.watch.v1` (internal; issue 38): the scores of watched addresses read afresh from
 * the chains and the index (never the cache's answer; the new reading and its verdict replace the
 * cached ones), for score-change detection and a webhook's baselines.
 */
export const ScoreWatchRequest = z.object({ addresses: z.array(ChecksummedAddress).min(1).max(MAX_BATCH_ADDRESSES) });
export type ScoreWatchRequest = z.infer<typeof ScoreWatchRequest>;

/** One factor as a change is judged on it: its points and rating. */
export const WatchedFactor = z.object({ label: z.enum(FACTOR_LABELS), points: z.number(), rating: RangeLabel });
export type WatchedFactor = z.infer<typeof WatchedFactor>;

/** A watched address's score now; `score` null for a wallet without on-chain activity (no score). */
export const WatchedScore = z.object({
  address: ChecksummedAddress,
  score: ScoreValue.nullable(),
  decile: Decile.nullable(),
  range: RangeLabel.nullable(),
  /** The model's factors in its order; empty without a score. */
  factors: z.array(WatchedFactor),
});
export type WatchedScore = z.infer<typeof WatchedScore>;

/** One entry per distinct address, in request order. */
export const ScoreWatchReply = z.object({ scores: z.array(WatchedScore) });
export type ScoreWatchReply = z.infer<typeof ScoreWatchReply>;
