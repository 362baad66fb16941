import type { AggregateReportRequest, AggregatedCrossChainReport } from '@credit/contracts/schemas/report';
import { mergeChainFigures } from '../domain/chain-figures';
import { chainBreakdown, summaryOf, transactionSpan } from '../domain/report-parts';
import { readReportedWallets } from './read-reported-wallets';
import type { ReportsDeps } from './reports-deps';

/**
 * docs/API.md §4.2 GET report/?address=: the addresses read together (each from its 5-minute
 * cache entry, the misses in one query and one multicall per chain), money and counts summed,
 * attestations merged without repeats, the earliest first and the latest last transaction,
 * `chains[]` merged per chain. `address` lists the addresses analysed (valid, with activity);
 * `timestamp` is the latest of their readings.
 */
export async function reportAggregate(request: AggregateReportRequest, deps: ReportsDeps): Promise<AggregatedCrossChainReport> {
  const wallets = await readReportedWallets(request.addresses, deps);
  const attestations = [...new Set(wallets.flatMap((w) => w.attestations))];
  const chains = deps.chains.map((chain) => mergeChainFigures(wallets.map((w) => w.chains.find((c) => c.chainId === chain.id)!)));
  return {
    report: {
      address: wallets.map((w) => w.address),
      timestamp: wallets.map((w) => w.computedAt).reduce((a, b) => (b > a ? b : a)),
      ...transactionSpan(chains),
      summary: summaryOf(chains, attestations),
      chains: chains.map(chainBreakdown),
    },
  };
}
