import { Queue } from 'bullmq';
import { DETECT_QUEUE } from '@credit/webhook-delivery/detect-queue';
import type { RunningIndexer } from '../src/indexer';
import { indexerConfig, type IndexerConfig } from '../src/config';
import { INDEXER_JOBS } from '../src/job-catalog';
import { redisConnection } from '../src/redis-connection';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testConfig(env: Record<string, string>): IndexerConfig {
  return indexerConfig({ REDIS_URL, HEALTH_PORT: '0', POLL_INTERVAL_MS: '200', JOB_LOCK_MS: '1000', ...env });
}

/** Polls until every chain's checkpoint reaches its target (or throws with where each one stands). */
export async function waitUntilIndexed(indexer: RunningIndexer, targets: ReadonlyMap<number, bigint>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await Promise.all(
      [...targets].map(async ([chainId, target]) => ({ chainId, target, cp: await indexer.repository.checkpoint(chainId) })),
    );
    if (status.every((s) => s.cp !== null && s.cp.indexedTo >= s.target)) return;
    if (Date.now() > deadline) {
      throw new Error(
        `not caught up: ${status.map((s) => `chain ${s.chainId} at ${s.cp?.indexedTo ?? 'none'} of ${s.target}`).join(', ')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Removes a test's queues (and their job schedulers) from Redis. */
export async function obliterateQueues(prefix: string): Promise<void> {
  for (const name of [...Object.values(INDEXER_JOBS).map((job) => job.queue), DETECT_QUEUE]) {
    const queue = new Queue(name, { connection: redisConnection(REDIS_URL), prefix });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
  }
}
