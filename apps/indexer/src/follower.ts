import type { Queue } from 'bullmq';
import type { ChainClient } from '@credit/chain/clients';
import type { ChainActivityRepository } from '@credit/db/chain-activity-repository';
import type { ChainSettings } from './config';
import { INDEXER_JOBS, jobOptions, rangeJobId, type IndexerJobPayload } from './job-catalog';

export interface FollowerDeps {
  clients: ReadonlyMap<number, ChainClient>;
  repository: ChainActivityRepository;
  rangeQueue: Queue;
  chainSettings: ReadonlyMap<number, ChainSettings>;
  rangeSize: number;
  maxPendingRanges: number;
}

export interface FollowResult {
  head: bigint;
  confirmed: bigint;
  planned: number;
  enqueued: number;
  retried: number;
  indexedTo: bigint | null;
}

/**
 * One tick of a chain's live follower: plans the confirmed blocks not planned yet as ranges (in
 * Postgres), makes sure every unfinished range has a job (a range whose job was lost, or failed
 * for good, gets one again: this is how a restart resumes), and moves the checkpoint.
 */
export async function followChain(deps: FollowerDeps, chainId: number): Promise<FollowResult> {
  const chain = deps.clients.get(chainId);
  const settings = deps.chainSettings.get(chainId);
  if (!chain || !settings) throw new Error(`follow job for chain ${chainId}, which is not configured`);
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  const confirmed = head - BigInt(settings.confirmations);
  let planned = 0;
  if (confirmed >= settings.startBlock) {
    const ranges = await deps.repository.planRanges({
      chainId,
      startBlock: settings.startBlock,
      upTo: confirmed,
      rangeSize: deps.rangeSize,
      maxPending: deps.maxPendingRanges,
      confirmations: settings.confirmations,
    });
    planned = ranges.length;
  }

  let enqueued = 0;
  let retried = 0;
  const missing: IndexerJobPayload<'range'>[] = [];
  for (const range of await deps.repository.pendingRanges(chainId, deps.maxPendingRanges)) {
    const payload = INDEXER_JOBS.range.payload.parse({ chainId, fromBlock: range.fromBlock.toString(), toBlock: range.toBlock.toString() });
    const job = await deps.rangeQueue.getJob(rangeJobId(payload));
    if (!job) {
      missing.push(payload);
      continue;
    }
    const state = await job.getState();
    if (state === 'failed') {
      await job.retry('failed');
      retried += 1;
    } else if (state === 'completed' || state === 'unknown') {
      // finished without completing the range in Postgres (cannot happen with this code; be safe)
      await job.remove().catch(() => undefined);
      missing.push(payload);
    }
  }
  if (missing.length > 0) {
    await deps.rangeQueue.addBulk(
      missing.map((data) => ({ name: 'range', data, opts: { ...jobOptions('range'), jobId: rangeJobId(data) } })),
    );
    enqueued = missing.length;
  }
  const indexedTo = await deps.repository.advanceCheckpoint(chainId);
  return { head, confirmed, planned, enqueued, retried, indexedTo };
}
