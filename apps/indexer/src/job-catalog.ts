import { z } from 'zod';

/**
 * Every BullMQ queue and job of the indexer: name → payload schema, attempts, backoff. Producers
 * and workers take names, payload types and options from here only; payloads are validated when
 * a job is added and again when it is processed. Block numbers travel as decimal strings (JSON).
 */
const blockNumber = z.string().regex(/^\d+$/, 'a block number in decimal');
const chainId = z.number().int().positive();

export const INDEXER_JOBS = {
  /** One per chain, repeated: plans new confirmed ranges, (re-)enqueues unfinished ones, moves the checkpoint. */
  follow: {
    queue: 'indexer.follow.v1',
    payload: z.object({ chainId }),
    attempts: 1,
    backoff: { type: 'fixed', delay: 1_000 },
  },
  /** Indexes one block range of one chain (inclusive bounds) in one database transaction. */
  range: {
    queue: 'indexer.range.v1',
    payload: z
      .object({ chainId, fromBlock: blockNumber, toBlock: blockNumber })
      .refine((p) => BigInt(p.fromBlock) <= BigInt(p.toBlock), 'fromBlock after toBlock'),
    attempts: 8,
    backoff: { type: 'exponential', delay: 500 },
  },
} as const;

export type IndexerJobName = keyof typeof INDEXER_JOBS;
export type IndexerJobPayload<N extends IndexerJobName> = z.output<(typeof INDEXER_JOBS)[N]['payload']>;

export function parseJobPayload<N extends IndexerJobName>(name: N, data: unknown): IndexerJobPayload<N> {
  return INDEXER_JOBS[name].payload.parse(data) as IndexerJobPayload<N>;
}

/** Add options from the catalog (finished jobs are removed: Postgres is the record of progress). */
export function jobOptions(name: IndexerJobName) {
  const job = INDEXER_JOBS[name];
  return {
    attempts: job.attempts,
    backoff: { ...job.backoff },
    removeOnComplete: true,
    removeOnFail: { count: 1_000 },
  };
}

/** One job id per range, so enqueuing a range twice is a no-op while its job exists. */
export function rangeJobId(p: IndexerJobPayload<'range'>): string {
  return `range-${p.chainId}-${p.fromBlock}-${p.toBlock}`;
}

export function followSchedulerId(chainIdValue: number): string {
  return `follow-${chainIdValue}`;
}
