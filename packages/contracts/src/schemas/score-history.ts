import { z } from 'zod';
import { AddressInput, ChecksummedAddress, MODEL_VERSION, RangeLabel } from './common';
import { Decile, ScoreValue } from './score';

/** Days of history one request may ask for (issue 38): a year at most, 90 by default. */
export const MAX_HISTORY_DAYS = 365;
export const DEFAULT_HISTORY_DAYS = 90;

export const ScoreHistoryRequest = z.object({
  address: AddressInput,
  days: z
    .number()
    .int()
    .min(1, `days must be an integer from 1 to ${MAX_HISTORY_DAYS}`)
    .max(MAX_HISTORY_DAYS, `days must be an integer from 1 to ${MAX_HISTORY_DAYS}`)
    .default(DEFAULT_HISTORY_DAYS),
});
export type ScoreHistoryRequest = z.infer<typeof ScoreHistoryRequest>;

/** One UTC day's score: the wallet as of the day's last indexed block (the last point: the score now). */
export const ScoreHistoryPoint = z.object({
  date: z.iso.date(),
  score: ScoreValue,
  decile: Decile,
  range: RangeLabel,
});
export type ScoreHistoryPoint = z.infer<typeof ScoreHistoryPoint>;

/**
 * docs/API.md §4.1 GET score/address/{address}/history: one point per UTC day, oldest first; a
 * day before the wallet's first activity is absent (not 300), so `points` may be shorter than
 * `days`. A wallet with no activity now has no score and no history: 404 `no_activity`.
 */
export const ScoreHistoryResult = z.object({
  address: ChecksummedAddress,
  model_version: z.literal(MODEL_VERSION),
  points: z.array(ScoreHistoryPoint),
});
export type ScoreHistoryResult = z.infer<typeof ScoreHistoryResult>;
