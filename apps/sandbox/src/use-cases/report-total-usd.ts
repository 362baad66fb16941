import type { AddressRequest } from '@credit/contracts/schemas/report';
import type { PortfolioByChain } from '@credit/contracts/schemas/portfolio';
import { resolveOne } from '../domain/resolve';

/** docs/API.md §2.7 all-chains value with its composition: one entry per chain the address used. */
export function reportTotalUsd(request: AddressRequest, now: Date): PortfolioByChain {
  const { address, profile } = resolveOne(request.address);
  return {
    address,
    total_asset_usd: profile.totalAssetUsd,
    timestamp: now.toISOString(),
    chains: profile.chains
      .filter((c) => c.active)
      .map((c) => ({ chain_id: c.chainId, chain_name: c.chainName, total_asset_usd: c.assetUsd })),
  };
}
