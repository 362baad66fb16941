import type { AddressRequest } from '@credit/contracts/schemas/report';
import type { PortfolioTotal } from '@credit/contracts/schemas/portfolio';
import { resolveOne } from '../domain/resolve';

/** docs/API.md §2.7 all-chains form: the portfolio's total value across chains. */
export function reportTotalUsdAggregate(request: AddressRequest, now: Date): PortfolioTotal {
  const { address, profile } = resolveOne(request.address);
  return { address, total_asset_usd: profile.totalAssetUsd, timestamp: now.toISOString() };
}
