import type { ChainPortfolio } from '@credit/contracts/schemas/portfolio';
import type { ChainReportRequest } from '@credit/contracts/schemas/report';
import { usdOfCents } from '../domain/report-parts';
import { readReportedWalletOnChain } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/** docs/API.md §2.7 one chain: the chain's `current_balance_usd` of the full report. */
export async function reportChainTotalUsd(request: ChainReportRequest, deps: ReportsDeps): Promise<ChainPortfolio> {
  const { wallet, figures } = await readReportedWalletOnChain(request, deps);
  return {
    address: wallet.address,
    chain_id: figures.chainId,
    chain_name: figures.chainName,
    total_asset_usd: usdOfCents(figures.balanceCents),
    timestamp: wallet.computedAt,
  };
}
