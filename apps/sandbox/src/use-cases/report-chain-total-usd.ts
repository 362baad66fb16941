import type { ChainPortfolio } from '@credit/contracts/schemas/portfolio';
import type { ChainReportRequest } from '@credit/contracts/schemas/report';
import { supportedChain } from '../domain/chain';
import { resolveOne } from '../domain/resolve';

/** docs/API.md §2.7 single-chain form; an unsupported chain is 400 whatever the address. */
export function reportChainTotalUsd(request: ChainReportRequest, now: Date): ChainPortfolio {
  const chain = supportedChain(request.chain_id);
  const { address, profile } = resolveOne(request.address);
  const onChain = profile.chains.find((c) => c.chainId === chain.id)!;
  return {
    address,
    chain_id: chain.id,
    chain_name: chain.name,
    total_asset_usd: onChain.assetUsd,
    timestamp: now.toISOString(),
  };
}
