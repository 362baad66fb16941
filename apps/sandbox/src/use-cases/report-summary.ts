import type { AddressRequest, SummaryReport } from '@credit/contracts/schemas/report';
import { resolveOne } from '../domain/resolve';
import { isoTransaction, summaryOf } from '../domain/replies';

/**
 * docs/API.md §4.5 sandbox summary: ISO 8601 transaction times, the six summary fields docs/API.md §4.5 lists, no
 * per-chain details.
 */
export function reportSummary(request: AddressRequest, now: Date): SummaryReport {
  const { address, profile } = resolveOne(request.address);
  const s = summaryOf(profile);
  return {
    report: {
      address,
      timestamp: now.toISOString(),
      first_transaction: isoTransaction(profile.firstTransaction),
      last_transaction: isoTransaction(profile.lastTransaction),
      summary: {
        total_asset_usd: s.total_asset_usd,
        total_collateral_usd: s.total_collateral_usd,
        total_debt_usd: s.total_debt_usd,
        count_transactions: s.count_transactions,
        count_transfers: s.count_transfers,
        count_identity_attestations: s.count_identity_attestations,
      },
    },
  };
}
