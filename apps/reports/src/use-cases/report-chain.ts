import type { ChainPortfolio } from '@credit/contracts/schemas/portfolio';
import type { ChainReportRequest, CrossChainReport } from '@credit/contracts/schemas/report';
import { chainBreakdown, summaryOf, transactionSpan, usdOfCents } from '../domain/report-parts';
import { knownChain, readReportedWallet, type ReportedWallet } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/**
 * A chain route's wallet and chain: the chain must be one the service reads (else 404
 * `chain_not_found`, checked before anything is read), the address active on some chain.
 */
async function walletOnChain(request: ChainReportRequest, deps: ReportsDeps) {
  const chain = knownChain(request.chain_id, deps);
  const wallet: ReportedWallet = await readReportedWallet(request.address, deps);
  const figures = wallet.chains.find((c) => c.chainId === chain.id)!;
  return { wallet, figures };
}

/**
 * docs/API.md §4.2 GET report/address/{a}/chain/{id}: the full report restricted to one chain (its
 * summary, its transactions, one `chains[]` item). A wallet active elsewhere but not here gets the
 * chain's zeros with `has_past_activity: false`.
 */
export async function reportChain(request: ChainReportRequest, deps: ReportsDeps): Promise<CrossChainReport> {
  const { wallet, figures } = await walletOnChain(request, deps);
  return {
    report: {
      address: wallet.address,
      timestamp: wallet.computedAt,
      ...transactionSpan([figures]),
      summary: summaryOf([figures], wallet.attestations),
      chains: [chainBreakdown(figures)],
    },
  };
}

/** docs/API.md §2.7 one chain: the chain's `current_balance_usd` of the full report. */
export async function reportChainTotalUsd(request: ChainReportRequest, deps: ReportsDeps): Promise<ChainPortfolio> {
  const { wallet, figures } = await walletOnChain(request, deps);
  return {
    address: wallet.address,
    chain_id: figures.chainId,
    chain_name: figures.chainName,
    total_asset_usd: usdOfCents(figures.balanceCents),
    timestamp: wallet.computedAt,
  };
}
