import type { AddressRequest, CrossChainSummaryReport } from '@credit/contracts/schemas/report';
import { reportFull } from './report-full';
import type { ReportsDeps } from './reports-deps';

/** docs/API.md §4.2 GET report/address/{a}/summary: the full report without `chains`. */
export async function reportSummary(request: AddressRequest, deps: ReportsDeps): Promise<CrossChainSummaryReport> {
  const { report } = await reportFull(request, deps);
  const { chains: _chains, ...summary } = report;
  return { report: summary };
}
