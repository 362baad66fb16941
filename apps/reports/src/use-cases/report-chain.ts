import type { ChainReportRequest, CrossChainReport } from '@credit/contracts/schemas/report';
import { chainBreakdown, summaryOf, transactionSpan } from '../domain/report-parts';
import { readReportedWalletOnChain } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/**
 * docs/API.md §4.2 GET report/address/{a}/chain/{id}: the full report restricted to one chain (its
 * summary, its transactions, one `chains[]` item). A wallet active elsewhere but not here gets the
 * chain's zeros with `has_past_activity: false`.
 */
export async function reportChain(request: ChainReportRequest, deps: ReportsDeps): Promise<CrossChainReport> {
  const { wallet, figures } = await readReportedWalletOnChain(request, deps);
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
