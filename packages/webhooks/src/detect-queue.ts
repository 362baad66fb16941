import { Queue, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';

/**
 * The score-change detection queue (issue 38): the indexer adds a job when it has committed a range
 * of a chain's blocks, the webhooks app's detector takes it. It lives under the indexer's BullMQ
 * prefix (QUEUE_PREFIX; the detector's INDEXER_QUEUE_PREFIX), in the Redis both use. The name
 * carries the payload's version.
 */
export const DETECT_QUEUE = 'webhooks.detect.v1';

const blockNumber = z.string().regex(/^\d+$/, 'a block number in decimal');

/** A committed range of one chain (inclusive), and whether a price feed answered anew in it. */
export const DetectJob = z
  .object({
    chainId: z.number().int().positive(),
    fromBlock: blockNumber,
    toBlock: blockNumber,
    /** A configured price feed's `AnswerUpdated` in the range: every watched address is scored again. */
    priceFeedUpdated: z.boolean(),
  })
  .refine((j) => BigInt(j.fromBlock) <= BigInt(j.toBlock), 'fromBlock after toBlock');
export type DetectJob = z.infer<typeof DetectJob>;

/** One job per range: a range indexed again (a retried job) is detected once while its job is kept. */
function detectJobId(job: Pick<DetectJob, 'chainId' | 'fromBlock' | 'toBlock'>): string {
  return `detect-${job.chainId}-${job.fromBlock}-${job.toBlock}`;
}

/**
 * Attempts: a detection fails while the scoring service is away (or a new webhook's baselines are
 * not stored yet); retried with backoff for about 10 minutes. Completed
 * jobs are kept an hour, so the same range queued again within it is not detected twice.
 */
function detectJobOptions(job: DetectJob) {
  return {
    jobId: detectJobId(job),
    attempts: 10,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: { age: 3_600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  } as const;
}

/** The producer's side (the indexer). */
export class DetectQueue {
  private readonly queue: Queue<DetectJob>;

  constructor(connection: ConnectionOptions, prefix: string) {
    this.queue = new Queue<DetectJob>(DETECT_QUEUE, { connection, prefix });
  }

  async add(job: DetectJob): Promise<void> {
    const checked = DetectJob.parse(job);
    await this.queue.add('detect', checked, detectJobOptions(checked));
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
