import type { Address } from 'viem';
import type { ScoreWatchReply, ScoreWatchRequest, WatchedScore } from '@credit/contracts/schemas/score-watch';
import { rangeOf } from '@credit/score-model/score-bands';
import { decileOfScore } from '../domain/replies';
import { isScored, type WalletOutcome } from '../domain/wallet-outcome';
import type { ScoringDeps } from './scoring-deps';

/**
 * `credit.score.watch.v1` (issue 38): the scores of watched addresses as they are now, for the
 * score-change detector and a webhook's baselines. The wallets are read afresh (`fresh: true`: the
 * cache's view is not taken) and each new view's verdict is stored beside it, so the next score
 * request of the API answers exactly what the webhook was told.
 */
export async function scoreWatched(request: ScoreWatchRequest, deps: ScoringDeps): Promise<ScoreWatchReply> {
  const views = await deps.fresh.reader.readWallets(request.addresses as Address[], { fresh: true });
  const scored = [...views].map(([address, view]) => ({ address, view, outcome: deps.fresh.scorer.outcomeOf(view) }));
  await deps.fresh.scores.set(scored);
  const outcomes = new Map(scored.map(({ address, outcome }) => [address, outcome]));
  return { scores: [...views.keys()].map((address) => watchedScore(address, outcomes.get(address)!)) };
}

function watchedScore(address: Address, outcome: WalletOutcome): WatchedScore {
  if (!isScored(outcome)) return { address, score: null, decile: null, range: null, factors: [] };
  return {
    address,
    score: outcome.score,
    decile: decileOfScore(outcome.score),
    range: rangeOf(outcome.score),
    factors: outcome.factors.map(({ label, points, rating }) => ({ label, points, rating })),
  };
}
