import { MODEL_VERSION } from '@credit/contracts/schemas/common';
import type { ChainBreakdown, ReportSummary } from '@credit/contracts/schemas/report';
import type { RangeLabel } from '@credit/contracts/schemas/common';
import type { ScoreFactor, ScoreResult } from '@credit/contracts/schemas/score';
import { decileOf } from '@credit/score-model/deciles';
import { SANDBOX_DECILE_CUT_POINTS } from '../generator/decile-cut-points';
import { rangeOf } from '@credit/score-model/score-bands';
import { sumUsd } from '@credit/contracts/usd';
import type { SandboxChainProfile, SandboxProfile, SandboxTransaction } from '../generator/types';

/**
 * Explicit mappings from generated profiles to the contract's reply fragments, shared by the use
 * cases. Production-style reports carry Unix-seconds transaction times; only the sandbox summary
 * carries ISO strings (docs/API.md §2.3).
 */

/** A sandbox score's decile (on the sandbox's own table) and range label: every reply that carries a score. */
export function bandOf(score: number): { decile: number; range: RangeLabel } {
  return { decile: decileOf(score, SANDBOX_DECILE_CUT_POINTS), range: rangeOf(score) };
}

export function scoreResult(address: string, score: number, now: Date, factors?: SandboxProfile['factors']): ScoreResult {
  return {
    address,
    score,
    ...bandOf(score),
    model_version: MODEL_VERSION,
    timestamp: now.toISOString(),
    ...(factors ? { factors: factors.map(toFactor) } : {}),
  };
}

function toFactor(factor: SandboxProfile['factors'][number]): ScoreFactor {
  return { label: factor.label, rating: factor.rating, description: factor.description };
}

export interface UnixTransaction {
  timestamp: number;
  block_number: number;
  chain_id: number;
}

export interface IsoTransaction {
  timestamp: string;
  block_number: number;
  chain_id: number;
}

export function unixTransaction(tx: SandboxTransaction): UnixTransaction {
  return { timestamp: tx.timestamp, block_number: tx.blockNumber, chain_id: tx.chainId };
}

export function isoTransaction(tx: SandboxTransaction): IsoTransaction {
  return { timestamp: new Date(tx.timestamp * 1000).toISOString(), block_number: tx.blockNumber, chain_id: tx.chainId };
}

/** docs/API.md §2.4's eight fields. */
export type CoreSummary = Required<
  Pick<
    ReportSummary,
    | 'total_asset_usd'
    | 'total_collateral_usd'
    | 'total_debt_usd'
    | 'count_transactions'
    | 'count_transfers'
    | 'count_balances'
    | 'count_identity_attestations'
    | 'list_identity_attestations'
  >
>;

/** docs/API.md §2.4's lending counts, present where lending data exists (always, in the sandbox). */
export type LendingCounts = Required<
  Pick<ReportSummary, 'count_collateral_deposits' | 'count_active_loans' | 'count_liquidations' | 'count_repayments'>
>;

/**
 * The summary of a whole profile or of one of its chains. Assets are the wallet's token holdings,
 * collateral what it supplied to lending protocols, debt what it borrowed. Identity attestations
 * belong to the address, not to a chain, so a chain's summary carries them all.
 */
export function summaryOf(profile: SandboxProfile, chain?: SandboxChainProfile): CoreSummary & LendingCounts {
  const counts = chain ? chain.counts : profile.counts;
  return {
    total_asset_usd: chain ? chain.assetUsd : profile.totalAssetUsd,
    total_collateral_usd: chain ? chain.suppliedUsd : profile.totalSuppliedUsd,
    total_debt_usd: chain ? chain.borrowedUsd : profile.totalBorrowedUsd,
    count_transactions: counts.transactions,
    count_transfers: counts.transfers,
    count_balances: counts.balances,
    count_identity_attestations: profile.attestations.length,
    list_identity_attestations: [...profile.attestations],
    count_collateral_deposits: counts.collateralDeposits,
    count_active_loans: counts.activeLoans,
    count_liquidations: counts.liquidations,
    count_repayments: counts.repayments,
  };
}

/** docs/API.md §2.3's chains[] item for one chain of a profile. */
export function chainBreakdown(profile: SandboxProfile, chain: SandboxChainProfile): ChainBreakdown {
  return {
    chain: {
      id: chain.chainId,
      name: chain.chainName,
      has_past_activity: chain.active,
      current_balance_usd: chain.assetUsd,
      transaction_count: chain.counts.transactions,
      balances: profile.tokens
        .filter((t) => t.chainId === chain.chainId)
        .map((t) => ({ symbol: t.symbol, name: t.name, usd_value: t.valueUsd })),
    },
  };
}

/**
 * Chains of several profiles merged per chain (table order): activity if any had it, balances and
 * transactions summed, token balances summed per token.
 */
export function mergeChains(profiles: readonly SandboxProfile[]): ChainBreakdown[] {
  const first = profiles[0];
  if (!first) return [];
  return first.chains.map((_, index) => {
    const items = profiles.map((p) => chainBreakdown(p, p.chains[index]!).chain);
    const balances = new Map<string, { symbol: string; name: string; usd_value: number }>();
    for (const item of items) {
      for (const b of item.balances) {
        const key = `${b.symbol}\u0000${b.name}`;
        const seen = balances.get(key);
        balances.set(key, seen ? { ...seen, usd_value: sumUsd([seen.usd_value, b.usd_value]) } : { ...b });
      }
    }
    const head = items[0]!;
    return {
      chain: {
        id: head.id,
        name: head.name,
        has_past_activity: items.some((c) => c.has_past_activity),
        current_balance_usd: sumUsd(items.map((c) => c.current_balance_usd)),
        transaction_count: items.reduce((n, c) => n + c.transaction_count, 0),
        balances: [...balances.values()],
      },
    };
  });
}
