import { handlerTableProvider } from '@credit/rpc/handler-table';
import { reportAggregate } from './use-cases/report-aggregate';
import { reportChain } from './use-cases/report-chain';
import { reportChainTotalUsd } from './use-cases/report-chain-total-usd';
import { reportEnhanced } from './use-cases/report-enhanced';
import { reportFull } from './use-cases/report-full';
import { reportSummary } from './use-cases/report-summary';
import { reportTotalUsd } from './use-cases/report-total-usd';
import { reportTotalUsdAggregate } from './use-cases/report-total-usd-aggregate';
import { REPORTS_DEPS, type ReportsDeps } from './use-cases/reports-deps';

/** Every `credit.report.*` subject and its use case. */
export const ReportsHandlers = handlerTableProvider('reports', REPORTS_DEPS, (deps: ReportsDeps) => ({
  'credit.report.full.v1': (request) => reportFull(request, deps),
  'credit.report.summary.v1': (request) => reportSummary(request, deps),
  'credit.report.chain.v1': (request) => reportChain(request, deps),
  'credit.report.total-usd.v1': (request) => reportTotalUsd(request, deps),
  'credit.report.total-usd-aggregate.v1': (request) => reportTotalUsdAggregate(request, deps),
  'credit.report.chain-total-usd.v1': (request) => reportChainTotalUsd(request, deps),
  'credit.report.enhanced.v1': (request) => reportEnhanced(request, deps),
  'credit.report.aggregate.v1': (request) => reportAggregate(request, deps),
}));
