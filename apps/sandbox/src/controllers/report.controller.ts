import { Controller } from '@nestjs/common';
import { Handles } from '@credit/rpc/handles.decorator';
import { Clock } from '../clock';
import type { Answer, Req } from './handler-types';
import { reportAggregate } from '../use-cases/report-aggregate';
import { reportChain } from '../use-cases/report-chain';
import { reportChainTotalUsd } from '../use-cases/report-chain-total-usd';
import { reportEnhanced } from '../use-cases/report-enhanced';
import { reportFull } from '../use-cases/report-full';
import { reportSummary } from '../use-cases/report-summary';
import { reportTotalUsd } from '../use-cases/report-total-usd';
import { reportTotalUsdAggregate } from '../use-cases/report-total-usd-aggregate';

/** Sandbox reports and portfolio values. */
@Controller()
export class ReportController {
  constructor(private readonly clock: Clock) {}

  @Handles('credit.sandbox.report.full.v1')
  full(request: Req<'credit.sandbox.report.full.v1'>): Answer<'credit.sandbox.report.full.v1'> {
    return reportFull(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.enhanced.v1')
  enhanced(request: Req<'credit.sandbox.report.enhanced.v1'>): Answer<'credit.sandbox.report.enhanced.v1'> {
    return reportEnhanced(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.aggregate.v1')
  aggregate(request: Req<'credit.sandbox.report.aggregate.v1'>): Answer<'credit.sandbox.report.aggregate.v1'> {
    return reportAggregate(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.summary.v1')
  summary(request: Req<'credit.sandbox.report.summary.v1'>): Answer<'credit.sandbox.report.summary.v1'> {
    return reportSummary(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.chain.v1')
  chain(request: Req<'credit.sandbox.report.chain.v1'>): Answer<'credit.sandbox.report.chain.v1'> {
    return reportChain(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.total-usd.v1')
  totalUsd(request: Req<'credit.sandbox.report.total-usd.v1'>): Answer<'credit.sandbox.report.total-usd.v1'> {
    return reportTotalUsd(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.total-usd-aggregate.v1')
  totalUsdAggregate(
    request: Req<'credit.sandbox.report.total-usd-aggregate.v1'>,
  ): Answer<'credit.sandbox.report.total-usd-aggregate.v1'> {
    return reportTotalUsdAggregate(request, this.clock.now());
  }

  @Handles('credit.sandbox.report.chain-total-usd.v1')
  chainTotalUsd(
    request: Req<'credit.sandbox.report.chain-total-usd.v1'>,
  ): Answer<'credit.sandbox.report.chain-total-usd.v1'> {
    return reportChainTotalUsd(request, this.clock.now());
  }
}
