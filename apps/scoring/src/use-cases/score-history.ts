import type { ScoreHistoryPoint, ScoreHistoryRequest, ScoreHistoryResult } from '@credit/contracts/schemas/score-history';
import { MODEL_VERSION } from '@credit/contracts/schemas/common';
import { rangeOf } from '@credit/score-model/score-bands';
import { dateOf, SECONDS_PER_DAY } from '@credit/wallet/history/wallet-history-reader';
import { decileOfScore, scoredOrThrow } from '../domain/replies';
import { isScored, type WalletOutcome } from '../domain/wallet-outcome';
import type { ScoringDeps } from './scoring-deps';

const NONE = 'none';

const pointOf = (date: string, score: number): ScoreHistoryPoint => ({ date, score, decile: decileOfScore(score), range: rangeOf(score) });

/** The `days` UTC dates ending with `today`, oldest first. */
function datesEnding(today: string, days: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`) / 1000;
  return Array.from({ length: days }, (_, i) => dateOf(end - (days - 1 - i) * SECONDS_PER_DAY));
}

/**
 * docs/API.md §4.1 GET score/address/{address}/history: one point per UTC day, oldest first. The
 * last day is the score now (the same reading and verdict as GET score, so the two agree); each
 * earlier day is the wallet after that day's last indexed block, rebuilt from the index
 * (`WalletHistoryReader`) and scored by the same model. Days before the wallet's first activity
 * are left out. Past days' points are cached by model and date. No activity now → 404 `no_activity`.
 */
export async function scoreHistory(request: ScoreHistoryRequest, deps: ScoringDeps): Promise<ScoreHistoryResult> {
  const address = await deps.resolver.resolveOne(request.address);
  const now = scoredOrThrow(address, (await deps.scorer.scoreWallets([address])).get(address));
  const today = dateOf(Date.parse(now.asOf) / 1000);
  const past = datesEnding(today, request.days).slice(0, -1);
  const { reader, cache, scorer, fingerprint } = deps.history;
  const field = (date: string) => `${fingerprint}:${date}`;
  const cached = await cache.get(address, past.map(field));
  const missing = past.filter((d) => !cached.has(field(d)));
  const computed = new Map<string, string>();
  for (const { date, view } of await reader.readDays(address, missing)) {
    const outcome: WalletOutcome = scorer.outcomeOf(view);
    computed.set(field(date), isScored(outcome) ? JSON.stringify(pointOf(date, outcome.score)) : NONE);
  }
  await cache.set(address, computed);
  const points = past.flatMap((date) => {
    const text = cached.get(field(date)) ?? computed.get(field(date));
    return text === undefined || text === NONE ? [] : [JSON.parse(text) as ScoreHistoryPoint];
  });
  return { address, model_version: MODEL_VERSION, points: [...points, pointOf(today, now.score)] };
}
