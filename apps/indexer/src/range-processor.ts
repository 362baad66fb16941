import type { ChainClient } from '@credit/chain/clients';
import type { ChainActivityRepository, WriteRangeResult } from '@credit/db/chain-activity-repository';
import type { IndexerJobPayload } from './job-catalog';
import { readRange } from './range-reader';

export interface RangeProcessorDeps {
  clients: ReadonlyMap<number, ChainClient>;
  repository: ChainActivityRepository;
  blockConcurrency: number;
}

/**
 * Indexes one range: reads it from the chain, writes it in one database transaction (which also
 * marks the range completed), then moves the chain's checkpoint over whatever is now contiguous.
 * `priceFeedUpdated`: a configured price feed answered anew in the range (score-change detection).
 * Running it again for the same range changes nothing. A cancelled job throws before commit.
 */
export async function processRange(
  deps: RangeProcessorDeps,
  payload: IndexerJobPayload<'range'>,
  signal?: AbortSignal,
): Promise<WriteRangeResult & { indexedTo: bigint | null; priceFeedUpdated: boolean }> {
  const chain = deps.clients.get(payload.chainId);
  if (!chain) throw new Error(`range job for chain ${payload.chainId}, which is not configured`);
  const data = await readRange(chain.client, chain.config, BigInt(payload.fromBlock), BigInt(payload.toBlock), {
    blockConcurrency: deps.blockConcurrency,
    ...(signal ? { signal } : {}),
  });
  const written = await deps.repository.writeRange(data, () => {
    if (signal?.aborted) throw new Error(`range ${payload.fromBlock}-${payload.toBlock} cancelled before commit`);
  });
  const indexedTo = await deps.repository.advanceCheckpoint(payload.chainId);
  return { ...written, indexedTo, priceFeedUpdated: (data.priceAnswers?.length ?? 0) > 0 };
}
