import type { PortfolioTotal } from '@credit/contracts/schemas/portfolio';
import type { AddressRequest } from '@credit/contracts/schemas/report';
import { reportTotalUsd } from './report-total-usd';
import type { ReportsDeps } from './reports-deps';

/** docs/API.md §4.2 GET …/total/usd/aggregate: the total alone. */
export async function reportTotalUsdAggregate(request: AddressRequest, deps: ReportsDeps): Promise<PortfolioTotal> {
  const { address, total_asset_usd, timestamp } = await reportTotalUsd(request, deps);
  return { address, total_asset_usd, timestamp };
}
