import type { EnhancedCrossChainReport, EnhancedReportRequest } from '@credit/contracts/schemas/report';
import { suppliedFigures, withOffChain } from '@credit/contracts/off-chain';
import { summaryOf, transactionSpan } from '../domain/report-parts';
import { readReportedWallet } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/**
 * docs/API.md §4.2 POST report/address/{a}: the wallet read afresh (the cache's answer is not
 * used: the enhanced report is recalculated on every request), its on-chain summary plus the
 * supplied off-chain figures (money summed in cents), the supplied figures echoed under
 * `additional.source.data` (only those supplied), and an empty `chains`.
 */
export async function reportEnhanced(request: EnhancedReportRequest, deps: ReportsDeps): Promise<EnhancedCrossChainReport> {
  const wallet = await readReportedWallet(request.address, deps, { fresh: true });
  const { name } = request.source;
  const data = suppliedFigures(request.source);
  const onChain = summaryOf(wallet.chains, wallet.attestations);
  return {
    report: {
      address: wallet.address,
      timestamp: wallet.computedAt,
      ...transactionSpan(wallet.chains),
      summary: withOffChain(onChain, data),
      additional: { source: { name, data } },
      chains: [],
    },
  };
}
