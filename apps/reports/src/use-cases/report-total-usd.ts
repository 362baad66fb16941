import type { PortfolioByChain } from '@credit/contracts/schemas/portfolio';
import type { AddressRequest } from '@credit/contracts/schemas/report';
import { sumCents } from '../domain/chain-figures';
import { usdOfCents } from '../domain/report-parts';
import { readReportedWallet } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/**
 * docs/API.md §4.2 GET …/total/usd: the portfolio's value and its composition by chain (every
 * chain read, zeros included); the same cents as the full report's `total_asset_usd` and chains.
 */
export async function reportTotalUsd(request: AddressRequest, deps: ReportsDeps): Promise<PortfolioByChain> {
  const wallet = await readReportedWallet(request.address, deps);
  return {
    address: wallet.address,
    total_asset_usd: usdOfCents(sumCents(wallet.chains.map((c) => c.balanceCents))),
    timestamp: wallet.computedAt,
    chains: wallet.chains.map((c) => ({ chain_id: c.chainId, chain_name: c.chainName, total_asset_usd: usdOfCents(c.balanceCents) })),
  };
}
