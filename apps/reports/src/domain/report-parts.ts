import type { ChainBreakdown, CrossChainSummary, UnixTransactionRef } from '@credit/contracts/schemas/report';
import { usd } from '@credit/contracts/usd';
import { earliest, latest, sumCents, type ChainFigures, type TxFigure } from './chain-figures';

/** Whole cents as the USD number of the wire (two decimals at most). */
export const usdOfCents = (cents: bigint): number => usd(Number(cents));

/** docs/API.md §2.3's transaction reference. */
export function transactionRef(tx: TxFigure | null): UnixTransactionRef | undefined {
  return tx === null ? undefined : { timestamp: tx.timestamp, block_number: tx.blockNumber, chain_id: tx.chainId };
}

/** The report's `first_transaction` and `last_transaction` over the chains given (absent without history). */
export function transactionSpan(chains: readonly ChainFigures[]): {
  first_transaction?: UnixTransactionRef;
  last_transaction?: UnixTransactionRef;
} {
  const first = transactionRef(chains.reduce<TxFigure | null>((t, c) => earliest(t, c.first), null));
  const last = transactionRef(chains.reduce<TxFigure | null>((t, c) => latest(t, c.last), null));
  return { ...(first ? { first_transaction: first } : {}), ...(last ? { last_transaction: last } : {}) };
}

/**
 * docs/API.md §2.4 over the chains given (one address's, or several addresses' merged), with the
 * identity attestations of the address(es). The lending counts appear when a chain read has
 * lending pools.
 */
export function summaryOf(chains: readonly ChainFigures[], attestations: readonly string[]): CrossChainSummary {
  const sum = (pick: (c: ChainFigures) => number) => chains.reduce((n, c) => n + pick(c), 0);
  const lending = chains.some((c) => c.hasLending)
    ? {
        count_collateral_deposits: sum((c) => c.supplyCount),
        count_active_loans: sum((c) => c.activeLoans),
        count_liquidations: sum((c) => c.liquidationCount),
        count_repayments: sum((c) => c.repayCount),
      }
    : {};
  return {
    total_asset_usd: usdOfCents(sumCents(chains.map((c) => c.balanceCents))),
    total_collateral_usd: usdOfCents(sumCents(chains.map((c) => c.collateralCents))),
    total_debt_usd: usdOfCents(sumCents(chains.map((c) => c.debtCents))),
    count_transactions: sum((c) => c.transactionCount),
    count_transfers: sum((c) => c.transferCount),
    count_balances: sum((c) => c.balanceCount),
    count_identity_attestations: attestations.length,
    list_identity_attestations: [...attestations],
    ...lending,
  };
}

/** A `chains[]` item (docs/API.md §2.3). */
export function chainBreakdown(chain: ChainFigures): ChainBreakdown {
  return {
    chain: {
      id: chain.chainId,
      name: chain.chainName,
      has_past_activity: chain.hasPastActivity,
      current_balance_usd: usdOfCents(chain.balanceCents),
      transaction_count: chain.transactionCount,
      balances: chain.balances.map((b) => ({ symbol: b.symbol, name: b.name, usd_value: usdOfCents(b.cents) })),
    },
  };
}
