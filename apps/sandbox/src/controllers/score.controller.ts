import { Controller } from '@nestjs/common';
import { Handles } from '@credit/rpc/handles.decorator';
import { Clock } from '../clock';
import type { Answer, Req } from './handler-types';
import { scoreAddress } from '../use-cases/score-address';
import { scoreAggregate } from '../use-cases/score-aggregate';
import { scoreBatch } from '../use-cases/score-batch';
import { scoreEnhanced } from '../use-cases/score-enhanced';

/** Sandbox scores. Thin: the request arrives validated, the reply leaves validated (@Handles). */
@Controller()
export class ScoreController {
  constructor(private readonly clock: Clock) {}

  @Handles('credit.sandbox.score.address.v1')
  address(request: Req<'credit.sandbox.score.address.v1'>): Answer<'credit.sandbox.score.address.v1'> {
    return scoreAddress(request, this.clock.now());
  }

  @Handles('credit.sandbox.score.aggregate.v1')
  aggregate(request: Req<'credit.sandbox.score.aggregate.v1'>): Answer<'credit.sandbox.score.aggregate.v1'> {
    return scoreAggregate(request, this.clock.now());
  }

  @Handles('credit.sandbox.score.batch.v1')
  batch(request: Req<'credit.sandbox.score.batch.v1'>): Answer<'credit.sandbox.score.batch.v1'> {
    return scoreBatch(request, this.clock.now());
  }

  @Handles('credit.sandbox.score.enhanced.v1')
  enhanced(request: Req<'credit.sandbox.score.enhanced.v1'>): Answer<'credit.sandbox.score.enhanced.v1'> {
    return scoreEnhanced(request, this.clock.now());
  }
}
