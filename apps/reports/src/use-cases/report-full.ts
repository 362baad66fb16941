import type { AddressRequest, CrossChainReport } from '@credit/contracts/schemas/report';
import { chainBreakdown, summaryOf, transactionSpan } from '../domain/report-parts';
import { readReportedWallet } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/**
 * docs/API.md §4.2 GET report/address/{a}: the full cross-chain report, one `chains[]` item per
 * chain read, from the wallet's shared reading (cached 5 minutes per address); `timestamp` is when
 * that reading was made.
 */
export async function reportFull(request: AddressRequest, deps: ReportsDeps): Promise<CrossChainReport> {
  const wallet = await readReportedWallet(request.address, deps);
  return {
    report: {
      address: wallet.address,
      timestamp: wallet.computedAt,
      ...transactionSpan(wallet.chains),
      summary: summaryOf(wallet.chains, wallet.attestations),
      chains: wallet.chains.map(chainBreakdown),
    },
  };
}
