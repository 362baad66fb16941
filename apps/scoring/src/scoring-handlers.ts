import { handlerTableProvider } from '@credit/rpc/handler-table';
import { scoreAddress } from './use-cases/score-address';
import { scoreAggregate } from './use-cases/score-aggregate';
import { scoreBatch } from './use-cases/score-batch';
import { scoreEnhanced } from './use-cases/score-enhanced';
import { scoreHistory } from './use-cases/score-history';
import { scoreWatched } from './use-cases/score-watched';
import { SCORING_DEPS, type ScoringDeps } from './use-cases/scoring-deps';

/** Every `credit.score.*` subject and its use case. */
export const ScoringHandlers = handlerTableProvider('scoring', SCORING_DEPS, (deps: ScoringDeps) => ({
  'credit.score.address.v1': (request) => scoreAddress(request, deps),
  'credit.score.aggregate.v1': (request) => scoreAggregate(request, deps),
  'credit.score.batch.v1': (request) => scoreBatch(request, deps),
  'credit.score.enhanced.v1': (request) => scoreEnhanced(request, deps),
  'credit.score.watch.v1': (request) => scoreWatched(request, deps),
  'credit.score.history.v1': (request) => scoreHistory(request, deps),
}));
