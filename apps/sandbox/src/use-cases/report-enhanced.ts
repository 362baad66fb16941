import type { EnhancedReportRequest, Report } from '@credit/contracts/schemas/report';
import { suppliedFigures, withOffChain } from '@credit/contracts/off-chain';
import { resolveOne } from '../domain/resolve';
import { summaryOf, unixTransaction } from '../domain/replies';

/**
 * docs/API.md §4.2 / §4.5 enhanced report, sandbox form: the mock on-chain summary with the supplied
 * off-chain figures added (money summed in cents), the supplied figures echoed under
 * `additional.source.data` (only those supplied), and an empty `chains`.
 */
export function reportEnhanced(request: EnhancedReportRequest, now: Date): Report {
  const { address, profile } = resolveOne(request.address);
  const { name } = request.source;
  const data = suppliedFigures(request.source);

  const onChain = summaryOf(profile);
  return {
    report: {
      address,
      timestamp: now.toISOString(),
      first_transaction: unixTransaction(profile.firstTransaction),
      last_transaction: unixTransaction(profile.lastTransaction),
      summary: withOffChain(onChain, data),
      additional: { source: { name, data } },
      chains: [],
    },
  };
}
