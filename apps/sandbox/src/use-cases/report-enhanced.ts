import type { EnhancedReportRequest, OffChainData, Report } from '@credit/contracts/schemas/report';
import { sumUsd } from '../generator/money';
import { resolveOne } from '../domain/resolve';
import { summaryOf, unixTransaction } from '../domain/replies';

const OFF_CHAIN_FIELDS = [
  'total_asset_usd',
  'total_collateral_usd',
  'total_debt_usd',
  'count_transactions',
  'count_transfers',
] as const satisfies readonly (keyof OffChainData)[];

/**
 * docs/API.md §4.2 / §4.5 enhanced report, sandbox form: the mock on-chain summary with the supplied
 * off-chain figures added (money summed in cents), the supplied figures echoed under
 * `additional.source.data` (only those supplied), and an empty `chains`.
 */
export function reportEnhanced(request: EnhancedReportRequest, now: Date): Report {
  const { address, profile } = resolveOne(request.address);
  const { name, ...rest } = request.source;
  const data: OffChainData = {};
  for (const field of OFF_CHAIN_FIELDS) if (rest[field] !== undefined) data[field] = rest[field];

  const onChain = summaryOf(profile);
  return {
    report: {
      address,
      timestamp: now.toISOString(),
      first_transaction: unixTransaction(profile.firstTransaction),
      last_transaction: unixTransaction(profile.lastTransaction),
      summary: {
        ...onChain,
        total_asset_usd: sumUsd([onChain.total_asset_usd, data.total_asset_usd ?? 0]),
        total_collateral_usd: sumUsd([onChain.total_collateral_usd, data.total_collateral_usd ?? 0]),
        total_debt_usd: sumUsd([onChain.total_debt_usd, data.total_debt_usd ?? 0]),
        count_transactions: onChain.count_transactions + (data.count_transactions ?? 0),
        count_transfers: onChain.count_transfers + (data.count_transfers ?? 0),
      },
      additional: { source: { name, data } },
      chains: [],
    },
  };
}
