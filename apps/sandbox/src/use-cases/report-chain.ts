import type { ChainReportRequest, Report } from '@credit/contracts/schemas/report';
import { supportedChain } from '../domain/chain';
import { resolveOne } from '../domain/resolve';
import { chainBreakdown, summaryOf, unixTransaction } from '../domain/replies';

/**
 * docs/API.md §4.2 chain report, sandbox form: the report of one chain (its first and last transaction
 * when it has any, its summary, its docs/API.md §2.3 chains[] item). The chain is checked first: an
 * unsupported chain is 400 whatever the address.
 */
export function reportChain(request: ChainReportRequest, now: Date): Report {
  const chain = supportedChain(request.chain_id);
  const { address, profile } = resolveOne(request.address);
  const onChain = profile.chains.find((c) => c.chainId === chain.id)!;
  return {
    report: {
      address,
      timestamp: now.toISOString(),
      ...(onChain.firstTransaction ? { first_transaction: unixTransaction(onChain.firstTransaction) } : {}),
      ...(onChain.lastTransaction ? { last_transaction: unixTransaction(onChain.lastTransaction) } : {}),
      summary: summaryOf(profile, onChain),
      chains: [chainBreakdown(profile, onChain)],
    },
  };
}
