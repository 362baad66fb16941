import { SANDBOX_CHAINS, blockAt, type SandboxChain } from './chains';
import type { Rng } from './prng';
import { DAY, FIRST_TRANSACTION_MAX, FIRST_TRANSACTION_MIN, HOUR, LAST_TRANSACTION_MAX } from './time-bounds';
import type { SandboxTransaction } from './types';

export interface ChainWindow {
  chain: SandboxChain;
  first: SandboxTransaction;
  last: SandboxTransaction;
}

/** Which chains the address used (table order, never empty). An ENS holder has used Ethereum. */
export function chooseActiveChains(rng: Rng, mustUseEthereum: boolean): SandboxChain[] {
  const active = SANDBOX_CHAINS.filter((chain) => rng.chance(chain.activeShare) || (mustUseEthereum && chain.id === 1));
  return active.length > 0 ? active : [rng.pick(SANDBOX_CHAINS)];
}

/**
 * First and last transaction on each active chain. One chain carries the address's first
 * transaction (between 2016-01-01 and 2025-06-30, never before the chain's launch; older for better
 * scores); every other chain starts strictly later. Last transactions lean recent, at least an hour
 * after the chain's first, never after 2026-01-01.
 */
export function activityWindows(rng: Rng, active: readonly SandboxChain[], quality: number): ChainWindow[] {
  const origin = rng.pick(active);
  const lo = Math.max(FIRST_TRANSACTION_MIN, origin.launchedAt);
  const age = Math.min(1, Math.max(0, 0.65 * rng.float() + 0.35 * (1 - quality)));
  const firstOfAll = lo + Math.floor((FIRST_TRANSACTION_MAX - lo) * age);
  return active.map((chain) => {
    let first = firstOfAll;
    if (chain !== origin) {
      const from = Math.max(firstOfAll + 1, chain.launchedAt);
      const to = Math.max(from, LAST_TRANSACTION_MAX - DAY);
      first = from + Math.floor((to - from) * rng.float());
    }
    const f = rng.float();
    const last = LAST_TRANSACTION_MAX - Math.floor((LAST_TRANSACTION_MAX - (first + HOUR)) * f * f * f);
    return { chain, first: transactionAt(chain, first), last: transactionAt(chain, last) };
  });
}

/** Transactions on a chain: at least 2, more for longer-lived and better-scored addresses. */
export function transactionCount(rng: Rng, window: ChainWindow, quality: number): number {
  const days = (window.last.timestamp - window.first.timestamp) / DAY;
  const f = rng.float();
  const perDay = 0.01 + 0.6 * f * f;
  return 2 + Math.floor(days * perDay * (0.5 + quality));
}

/** Transfers: at least half the transactions (a transaction moves zero or more tokens). */
export function transferCount(rng: Rng, transactions: number): number {
  return Math.ceil(transactions / 2) + rng.int(0, transactions * 2);
}

export function transactionAt(chain: SandboxChain, timestamp: number): SandboxTransaction {
  return { timestamp, blockNumber: blockAt(chain, timestamp), chainId: chain.id };
}
