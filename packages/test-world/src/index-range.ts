import type { ChainRegistry } from '@credit/chain/chain-config';
import { createChainClients } from '@credit/chain/clients';
import type { ChainActivityRepository } from '@credit/db/chain-activity-repository';
import { processRange } from '@credit/indexer/range-processor';

/**
 * Indexes one planned block range of a chain with the indexer's own range processor, as its range
 * job does (read the blocks, write them in one transaction, move the checkpoint over what is now
 * contiguous), and returns the checkpoint. With the indexer stopped, a test commits ranges in the
 * order it chooses: a later range before an earlier one leaves a gap the checkpoint stops at.
 */
export async function indexRange(
  registry: ChainRegistry,
  repository: ChainActivityRepository,
  range: { chainId: number; fromBlock: bigint; toBlock: bigint },
): Promise<bigint | null> {
  const clients = createChainClients(registry);
  const payload = { chainId: range.chainId, fromBlock: String(range.fromBlock), toBlock: String(range.toBlock) };
  return (await processRange({ clients, repository, blockConcurrency: 4 }, payload)).indexedTo;
}
