import type { Server } from 'node:http';
import { Queue, Worker, type Job } from 'bullmq';
import { createChainClients } from '@credit/chain/clients';
import { ChainActivityRepository } from '@credit/db/chain-activity-repository';
import { createPrismaClient } from '@credit/db/prisma-client';
import { startProbeServer } from '@credit/observability/probe-server';
import { nameProcess } from '@credit/observability/process-registry';
import { Readiness } from '@credit/observability/readiness';
import { DetectQueue } from '@credit/webhook-delivery/detect-queue';
import type { IndexerConfig } from './config';
import { reconcileChain, type ReconcileOptions, type Reconciliation } from './chain-reconciler';
import { followChain } from './follower';
import { watchIndexProgress } from './index-progress-gauges';
import { followSchedulerId, INDEXER_JOBS, jobOptions, parseJobPayload } from './job-catalog';
import { jsonLogger, type Logger } from './logger';
import { processRange } from './range-processor';
import { redisConnection } from './redis-connection';
import { TableStatistics } from './table-statistics';

export interface RunningIndexer {
  readonly repository: ChainActivityRepository;
  /** What the start found on each chain (resumed, rolled back, reset, replaced), by chain id. */
  readonly reconciliations: ReadonlyMap<number, Reconciliation>;
  /** True while the workers run. */
  ready(): boolean;
  /** Graceful: stops taking jobs, lets running ones finish, closes every connection. */
  close(): Promise<void>;
  /**
   * Abrupt, as a crash would be: running jobs are cancelled (their database transaction rolls
   * back), their BullMQ locks are left to expire, nothing is handed over. For tests and drills.
   */
  kill(): Promise<void>;
}

export interface StartIndexerOptions {
  logger?: Logger;
  /** How the start retries its reads of the chains (tests shorten it). */
  reconcile?: ReconcileOptions;
}

/**
 * The indexer: a follower job per chain (a BullMQ job scheduler, every POLL_INTERVAL_MS) that plans
 * confirmed ranges and enqueues them, and CONCURRENCY range workers that index them. Any number of
 * processes may run it against the same Redis and Postgres.
 */
export async function startIndexer(config: IndexerConfig, options: StartIndexerOptions = {}): Promise<RunningIndexer> {
  const logger = options.logger ?? jsonLogger;
  const connection = redisConnection(config.REDIS_URL);
  const prefix = config.QUEUE_PREFIX;
  const db = createPrismaClient(config.DATABASE_URL, { maxConnections: config.CONCURRENCY + 4, applicationName: 'credit-indexer' });
  const repository = new ChainActivityRepository(db);
  const clients = createChainClients(config.chains);
  const reconciliations = new Map<number, Reconciliation>();
  for (const chain of clients.values()) {
    const found = await reconcileChain(chain, repository, options.reconcile).catch(async (error: unknown) => {
      await db.$disconnect();
      throw error;
    });
    const chainId = chain.config.id;
    reconciliations.set(chainId, found);
    if (found.outcome === 'resumed') {
      logger.info('the chain still has the last indexed block: indexing resumes from the checkpoint', { chainId });
    } else if (found.outcome === 'replaced') {
      logger.warn('chain replaced under its id: its indexed rows were deleted, indexing starts over', {
        chainId,
        genesisHash: found.genesisHash,
      });
    } else if (found.outcome === 'reset') {
      logger.warn('the chain has none of the indexed blocks any more: its indexed rows were deleted, indexing starts over', {
        chainId,
        indexedBlock: found.indexedBlock.toString(),
      });
    } else if (found.outcome === 'rolled_back') {
      logger.warn('the chain forked after an indexed block: what was indexed after it was rolled back and is indexed again', {
        chainId,
        forkBlock: found.forkBlock.toString(),
        indexedBlock: found.indexedBlock.toString(),
        deletedTransactions: found.deletedTransactions,
        deletedLogs: found.deletedLogs,
        addresses: found.addresses,
      });
    }
  }

  const rangeQueue = new Queue(INDEXER_JOBS.range.queue, { connection, prefix });
  const followQueue = new Queue(INDEXER_JOBS.follow.queue, { connection, prefix });
  const detectQueue = new DetectQueue(connection, prefix);
  const workerOptions = { connection, prefix, lockDuration: config.JOB_LOCK_MS, stalledInterval: config.JOB_LOCK_MS };
  // processors still running: a forced close does not wait for them, so `kill` does before disconnecting
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.then(
      () => inFlight.delete(work),
      () => inFlight.delete(work),
    );
    return work;
  };

  const statistics = new TableStatistics(() => repository.analyzeIndexTables());
  const rangeWorker = new Worker(
    INDEXER_JOBS.range.queue,
    async (job: Job, _token?: string, signal?: AbortSignal) => {
      const payload = parseJobPayload('range', job.data);
      const result = await track(processRange({ clients, repository, blockConcurrency: config.BLOCK_FETCH_CONCURRENCY }, payload, signal));
      // committed: a failure from here retries the job, whose range then writes nothing new
      await detectQueue.add({ ...payload, priceFeedUpdated: result.priceFeedUpdated });
      // the planner's statistics refreshed once enough rows have come in; the range stands either way
      await track(statistics.afterWrite(result.insertedTransactions + result.insertedLogs)).catch((error: Error) =>
        logger.warn("the index tables' statistics were not refreshed", { error: error.message }),
      );
      const { priceFeedUpdated: _, ...written } = result;
      return { ...written, indexedTo: result.indexedTo?.toString() ?? null };
    },
    { ...workerOptions, concurrency: config.CONCURRENCY },
  );
  const followWorker = new Worker(
    INDEXER_JOBS.follow.queue,
    async (job: Job) => {
      const { chainId } = parseJobPayload('follow', job.data);
      const result = await track(
        followChain(
          {
            clients,
            repository,
            rangeQueue,
            chainSettings: config.chainSettings,
            rangeSize: config.RANGE_SIZE,
            maxPendingRanges: config.MAX_PENDING_RANGES,
          },
          chainId,
        ),
      );
      if (result.planned > 0 || result.enqueued > 0 || result.retried > 0) logger.info('follow', { chainId, ...result });
      return { chainId, head: result.head.toString(), indexedTo: result.indexedTo?.toString() ?? null };
    },
    { ...workerOptions, concurrency: Math.max(1, config.chains.length) },
  );
  for (const worker of [rangeWorker, followWorker]) {
    worker.on('failed', (job, error) =>
      logger.warn('job failed', { queue: worker.name, jobId: job?.id, attempt: job?.attemptsMade, error: error.message }),
    );
    worker.on('error', (error) => logger.error('worker error', { queue: worker.name, error: error.message }));
  }

  let running = true;
  let health: Server | undefined;
  const closeAll = async (force: boolean) => {
    if (!running) return;
    running = false;
    if (force) {
      rangeWorker.cancelAllJobs('killed');
      followWorker.cancelAllJobs('killed');
    }
    await Promise.all([rangeWorker.close(force), followWorker.close(force)]);
    await Promise.allSettled([...inFlight]);
    await Promise.all([rangeQueue.close(), followQueue.close(), detectQueue.close()]);
    await db.$disconnect();
    await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()));
  };

  try {
    for (const chain of config.chains) {
      await followQueue.upsertJobScheduler(
        followSchedulerId(chain.id),
        { every: config.POLL_INTERVAL_MS },
        { name: 'follow', data: INDEXER_JOBS.follow.payload.parse({ chainId: chain.id }), opts: jobOptions('follow') },
      );
    }
    nameProcess('indexer', config.METRICS);
    watchIndexProgress([...clients.values()], repository);
    const readiness = new Readiness().add(
      {
        name: 'workers',
        check: () => {
          if (!(running && rangeWorker.isRunning() && followWorker.isRunning())) throw new Error('the job workers are not running');
        },
      },
      { name: 'redis', check: async () => void (await rangeQueue.getJobCounts('waiting')) },
      { name: 'postgres', check: async () => void (await db.$queryRaw`SELECT 1`) },
    );
    health = await startProbeServer(config.HEALTH_PORT, readiness);
  } catch (error) {
    await closeAll(true);
    throw error;
  }
  logger.info('indexer started', {
    chains: config.chains.map((c) => ({ id: c.id, name: c.name, ...config.chainSettings.get(c.id) })),
    rangeSize: config.RANGE_SIZE,
    concurrency: config.CONCURRENCY,
    healthPort: config.HEALTH_PORT,
  });
  return {
    repository,
    reconciliations,
    ready: () => running,
    close: () => closeAll(false),
    kill: () => closeAll(true),
  };
}
