import type { AggregateReportRequest, AggregatedReport } from '@credit/contracts/schemas/report';
import { sumUsd } from '@credit/contracts/usd';
import type { SandboxTransaction } from '../generator/types';
import { resolveMany } from '../domain/resolve';
import { mergeChains, unixTransaction } from '../domain/replies';

/**
 * docs/API.md §4.2 aggregated report, sandbox form: amounts and counts summed over the valid addresses,
 * attestations merged and deduplicated (so count_identity_attestations is the merged list's
 * length), earliest first and latest last transaction, chains merged per chain.
 */
export function reportAggregate(request: AggregateReportRequest, now: Date): AggregatedReport {
  const resolved = resolveMany(request.addresses);
  const profiles = resolved.map((r) => r.profile);
  const attestations = [...new Set(profiles.flatMap((p) => p.attestations))];
  const total = (pick: (p: (typeof profiles)[number]) => number) => profiles.reduce((n, p) => n + pick(p), 0);
  return {
    report: {
      address: resolved.map((r) => r.address),
      timestamp: now.toISOString(),
      first_transaction: unixTransaction(
        extreme(
          profiles.map((p) => p.firstTransaction),
          (a, b) => a < b,
        ),
      ),
      last_transaction: unixTransaction(
        extreme(
          profiles.map((p) => p.lastTransaction),
          (a, b) => a > b,
        ),
      ),
      summary: {
        total_asset_usd: sumUsd(profiles.map((p) => p.totalAssetUsd)),
        total_collateral_usd: sumUsd(profiles.map((p) => p.totalSuppliedUsd)),
        total_debt_usd: sumUsd(profiles.map((p) => p.totalBorrowedUsd)),
        count_transactions: total((p) => p.counts.transactions),
        count_transfers: total((p) => p.counts.transfers),
        count_balances: total((p) => p.counts.balances),
        count_identity_attestations: attestations.length,
        list_identity_attestations: attestations,
      },
      chains: mergeChains(profiles),
    },
  };
}

/** The first transaction whose timestamp beats all others (ties: the earlier address wins). */
function extreme(txs: readonly SandboxTransaction[], beats: (a: number, b: number) => boolean): SandboxTransaction {
  return txs.reduce((best, tx) => (beats(tx.timestamp, best.timestamp) ? tx : best));
}
