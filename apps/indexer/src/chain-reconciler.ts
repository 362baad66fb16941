import { BlockNotFoundError, type Hash } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import type { ChainActivityRepository, IndexedBlockRef } from '@credit/db/chain-activity-repository';

/** What a start found when it compared a chain's indexed rows with the chain. */
export type Reconciliation =
  /** Nothing indexed yet, or the chain still has the last indexed block: indexing resumes. */
  | { outcome: 'resumed' }
  /** Another genesis under the same id: every row of the chain was deleted. */
  | { outcome: 'replaced'; genesisHash: Hash }
  /** The history changed after `forkBlock`: what was indexed after it was rolled back. */
  | { outcome: 'rolled_back'; forkBlock: bigint; indexedBlock: bigint; deletedTransactions: number; deletedLogs: number; addresses: number }
  /** No indexed block is on the chain any more (a reseed with the same genesis): every row was deleted. */
  | { outcome: 'reset'; indexedBlock: bigint };

export interface ReconcileOptions {
  /** Attempts of each JSON-RPC read before the start fails (a node that errs, times out or answers 429). */
  attempts: number;
  /** Delay before the second attempt; doubled for each further one. */
  retryDelayMs: number;
}

export const DEFAULT_RECONCILE_OPTIONS: ReconcileOptions = { attempts: 5, retryDelayMs: 250 };

/**
 * Ties the indexed rows of a chain to the chain as it is now, before any range is indexed.
 * Rows are deleted only on evidence read from the chain: a different genesis hash, or indexed
 * blocks whose hash the chain no longer has (or that it no longer has at all). A read that fails
 * is retried and then fails the start; it never counts as a difference.
 *
 * Every completed range keeps the hash of its last block, and a block hash commits to all blocks
 * before it, so the newest recorded block that still matches is where the histories part: a
 * binary search over the ranges finds it in O(log ranges) reads, and only what was indexed after
 * it is rolled back (a restarted devnet that lost its last minutes re-indexes those minutes, not
 * its years).
 */
export async function reconcileChain(
  chain: ChainClient,
  repository: ChainActivityRepository,
  options: ReconcileOptions = DEFAULT_RECONCILE_OPTIONS,
): Promise<Reconciliation> {
  const chainId = chain.config.id;
  const hashAt = (block: bigint) => withRetries(options, `block ${block} of chain ${chainId}`, () => blockHash(chain, block));

  const genesis = await hashAt(0n);
  if (genesis === null) throw new Error(`chain ${chainId} answered without a genesis block`);
  if ((await repository.ensureChainIdentity(chainId, genesis)) === 'reset') return { outcome: 'replaced', genesisHash: genesis };

  const refs = await repository.indexedBlockRefs(chainId);
  if (refs.length === 0 || (await matches(refs[0]!, hashAt))) return { outcome: 'resumed' };

  // refs are newest first and refs[0] differs: find the first (newest) one that still matches.
  let lo = 1;
  let hi = refs.length; // refs[hi] is "none matches"
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (await matches(refs[mid]!, hashAt)) hi = mid;
    else lo = mid + 1;
  }
  if (lo === refs.length) {
    await repository.resetChain(chainId);
    return { outcome: 'reset', indexedBlock: refs[0]!.block };
  }
  const fork = refs[lo]!.block;
  const result = await repository.rollbackTo(chainId, fork);
  return {
    outcome: 'rolled_back',
    forkBlock: fork,
    indexedBlock: refs[0]!.block,
    deletedTransactions: result.deletedTransactions,
    deletedLogs: result.deletedLogs,
    addresses: result.addresses,
  };
}

async function matches(ref: IndexedBlockRef, hashAt: (block: bigint) => Promise<Hash | null>): Promise<boolean> {
  return (await hashAt(ref.block))?.toLowerCase() === ref.hash;
}

/** The hash of a block, or null when the chain has no such block (it is shorter now). */
async function blockHash(chain: ChainClient, block: bigint): Promise<Hash | null> {
  try {
    const found = await chain.client.getBlock({ blockNumber: block });
    if (!found.hash) throw new Error(`block ${block} came back without a hash`);
    return found.hash;
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

async function withRetries<T>(options: ReconcileOptions, what: string, read: () => Promise<T>): Promise<T> {
  let delay = options.retryDelayMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= options.attempts) {
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        throw new Error(`could not read ${what} after ${attempt} attempts (${reason}); nothing was deleted`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}
