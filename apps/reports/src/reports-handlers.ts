import { handlerTableController } from '@credit/rpc/handler-table';
import { reportAggregate } from './use-cases/report-aggregate';
import { reportChain, reportChainTotalUsd } from './use-cases/report-chain';
import { reportEnhanced } from './use-cases/report-enhanced';
import { reportFull, reportSummary } from './use-cases/report-full';
import { reportTotalUsd, reportTotalUsdAggregate } from './use-cases/report-total-usd';
import { REPORTS_DEPS, type ReportsDeps } from './use-cases/reports-deps';

/** Every `credit.report.*` subject and its use case. */
export const ReportsHandlers = handlerTableController('reports', REPORTS_DEPS, (deps: ReportsDeps) => ({
  'credit.report.full.v1': (request) => reportFull(request, deps),
  'credit.report.summary.v1': (request) => reportSummary(request, deps),
  'credit.report.chain.v1': (request) => reportChain(request, deps),
  'credit.report.total-usd.v1': (request) => reportTotalUsd(request, deps),
  'credit.report.total-usd-aggregate.v1': (request) => reportTotalUsdAggregate(request, deps),
  'credit.report.chain-total-usd.v1': (request) => reportChainTotalUsd(request, deps),
  'credit.report.enhanced.v1': (request) => reportEnhanced(request, deps),
  'credit.report.aggregate.v1': (request) => reportAggregate(request, deps),
}));
