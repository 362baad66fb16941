import { Controller, Inject } from '@nestjs/common';
import { Handles } from '@credit/rpc/handles.decorator';
import { scoreAddress } from '../use-cases/score-address';
import { scoreAggregate } from '../use-cases/score-aggregate';
import { scoreBatch } from '../use-cases/score-batch';
import { scoreEnhanced } from '../use-cases/score-enhanced';
import { SCORING_DEPS, type ScoringDeps } from '../use-cases/scoring-deps';
import type { Answer, Req } from './handler-types';

/** Production scores. Thin: the request arrives validated, the reply leaves validated (@Handles). */
@Controller()
export class ScoreController {
  constructor(@Inject(SCORING_DEPS) private readonly deps: ScoringDeps) {}

  @Handles('credit.score.address.v1')
  address(request: Req<'credit.score.address.v1'>): Answer<'credit.score.address.v1'> {
    return scoreAddress(request, this.deps);
  }

  @Handles('credit.score.aggregate.v1')
  aggregate(request: Req<'credit.score.aggregate.v1'>): Answer<'credit.score.aggregate.v1'> {
    return scoreAggregate(request, this.deps);
  }

  @Handles('credit.score.batch.v1')
  batch(request: Req<'credit.score.batch.v1'>): Answer<'credit.score.batch.v1'> {
    return scoreBatch(request, this.deps);
  }

  @Handles('credit.score.enhanced.v1')
  enhanced(request: Req<'credit.score.enhanced.v1'>): Answer<'credit.score.enhanced.v1'> {
    return scoreEnhanced(request, this.deps);
  }
}
