import { MODEL_VERSION } from '@credit/contracts/schemas/common';
import type { ScoreHistoryRequest, ScoreHistoryResult } from '@credit/contracts/schemas/score-history';
import { bandOf } from '../domain/replies';
import { resolveOne } from '../domain/resolve';
import { isoDateOfDay, scoreWalk, utcDayOf } from '../generator/score-history';

/**
 * docs/API.md §4.1 GET score/address/{address}/history, sandbox form: the last `days` UTC days up
 * to the clock's, oldest first. The last point is the sandbox's score of the address (what
 * score/address answers at the same clock); days before the profile's first transaction (the one
 * the sandbox's reports answer) are absent, so a clock before it gets no points at all.
 */
export function scoreHistory(request: ScoreHistoryRequest, now: Date): ScoreHistoryResult {
  const resolved = resolveOne(request.address);
  const { profile } = resolved;
  const today = utcDayOf(Math.floor(now.getTime() / 1000));
  const from = Math.max(today - request.days + 1, utcDayOf(profile.firstTransaction.timestamp));
  return {
    address: resolved.address,
    model_version: MODEL_VERSION,
    points: scoreWalk(profile.key, resolved.score, from, today).map(({ day, score }) => ({
      date: isoDateOfDay(day),
      score,
      ...bandOf(score),
    })),
  };
}
