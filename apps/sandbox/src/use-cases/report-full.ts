import type { AddressRequest } from '@credit/contracts/schemas/report';
import type { SandboxReport } from '@credit/contracts/schemas/sandbox-report';
import { rangeOf } from '@credit/score-model/score-bands';
import { resolveOne } from '../domain/resolve';

/** docs/API.md §2.8: the flat sandbox report. */
export function reportFull(request: AddressRequest, now: Date): SandboxReport {
  const { address, profile } = resolveOne(request.address);
  return {
    address,
    score: { value: profile.score, classification: rangeOf(profile.score) },
    assets: {
      total_value_usd: profile.totalAssetUsd,
      tokens: profile.tokens.map((t) => ({
        symbol: t.symbol,
        name: t.name,
        balance: t.balance,
        value_usd: t.valueUsd,
        chain_id: t.chainId,
      })),
      nfts: profile.nfts.map((n) => ({ name: n.name, collection: n.collection, chain_id: n.chainId })),
    },
    defi: {
      protocols: profile.defi.map((d) => ({
        name: d.protocol,
        supplied: d.suppliedUsd,
        borrowed: d.borrowedUsd,
        chain_id: d.chainId,
      })),
      total_supplied: profile.totalSuppliedUsd,
      total_borrowed: profile.totalBorrowedUsd,
    },
    activity: {
      first_transaction: new Date(profile.firstTransaction.timestamp * 1000).toISOString(),
      total_transactions: profile.counts.transactions,
      active_chains: [...profile.activeChains],
    },
    sandbox: true,
    cached: false,
    timestamp: now.toISOString(),
  };
}
