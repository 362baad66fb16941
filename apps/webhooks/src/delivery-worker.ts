import type { Server } from 'node:http';
import { Queue, Worker, type Job } from 'bullmq';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { createPrismaClient } from '@credit/db/prisma-client';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { startProbeServer } from '@credit/observability/probe-server';
import { nameProcess } from '@credit/observability/process-registry';
import { Readiness } from '@credit/observability/readiness';
import { DELIVERY_QUEUE, DeliveryJob, deliveryQueuePrefix } from '@credit/webhook-delivery/delivery-queue';
import type { WebhooksConfig } from './config';
import { AttemptFailed, deliverEvent } from './deliver-event';
import type { Logger } from './logger';
import { deliveriesGivenUp } from './webhook-metrics';

/** A worker's stall checks allowed per job: each is a worker that died holding it, not the endpoint failing. */
const MAX_STALLED = 20;

export interface RunningDeliveryWorker {
  /** Stops taking jobs, lets the attempts under way finish, closes Redis and Postgres and the probe port. */
  close(): Promise<void>;
}

/**
 * The delivery worker: takes events from the queue (any number of replicas share it), delivers
 * each with `deliverEvent`, and leaves retries to BullMQ (the job's attempts and backoff, from
 * `deliveryJobOptions`). A job is locked while its attempt runs; a worker that dies stops renewing
 * the lock and the job goes back to the queue for another worker (or this one, restarted) after
 * `JOB_LOCK_MS`: at least once, never lost. A job that comes back so is first checked against the
 * attempts recorded in Postgres: an event whose 2xx was recorded before its worker died is not sent
 * again (only a 2xx the worker could not record before it died is). `WEBHOOK_RETRY_BASE_MS`, when
 * set, replaces the jobs' backoff base (tests, devnets).
 */
export async function startDeliveryWorker(config: WebhooksConfig, logger: Logger): Promise<RunningDeliveryWorker> {
  const db = createPrismaClient(config.DATABASE_URL, { applicationName: 'credit-webhooks' });
  const webhooks = new WebhookRepository(db);
  const prefix = deliveryQueuePrefix(config.NATS_SUBJECT_PREFIX);
  const connection = { ...redisOptionsFromUrl(config.REDIS_URL), maxRetriesPerRequest: null };
  const queue = new Queue(DELIVERY_QUEUE, { connection, prefix });
  queue.on('error', (error) => logger.warn('queue connection', { error: error.message }));
  const policy = { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE };
  const retryBackoff =
    config.WEBHOOK_RETRY_BASE_MS === undefined ? undefined : { type: 'exponential', delay: config.WEBHOOK_RETRY_BASE_MS };

  const worker = new Worker<DeliveryJob>(
    DELIVERY_QUEUE,
    async (job) => {
      const data = DeliveryJob.parse(job.data);
      const attempt = job.attemptsMade + 1;
      // BullMQ computes the next retry's delay from this job object's options when the attempt fails.
      if (retryBackoff !== undefined) job.opts.backoff = retryBackoff;
      // a 2xx of the event on record: an attempt whose outcome Redis never got
      if (resumedAfterStall(job) && (await webhooks.wasDelivered(data.webhookId, data.event.id))) {
        logger.warn('event already delivered before its worker stopped, not sent again', {
          webhookId: data.webhookId,
          eventId: data.event.id,
          attempt,
        });
        return 'delivered';
      }
      const result = await deliverEvent(data, attempt, { webhooks, policy, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
      logger.info(result === 'delivered' ? 'delivered' : 'webhook deleted, event dropped', {
        webhookId: data.webhookId,
        eventId: data.event.id,
        attempt,
      });
      return result;
    },
    {
      connection,
      prefix,
      concurrency: config.CONCURRENCY,
      lockDuration: config.JOB_LOCK_MS,
      stalledInterval: config.JOB_LOCK_MS,
      maxStalledCount: MAX_STALLED,
    },
  );
  worker.on('failed', (job, error) => reportFailure(logger, job, error));
  worker.on('error', (error) => logger.error('worker error', { error: error.message }));

  let health: Server | undefined;
  let running = true;
  const close = async () => {
    if (!running) return;
    running = false;
    await worker.close();
    await queue.close();
    await db.$disconnect();
    await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()));
  };
  try {
    nameProcess('webhooks', config.METRICS);
    const readiness = new Readiness().add(
      {
        name: 'worker',
        check: () => {
          if (!(running && worker.isRunning())) throw new Error('the delivery worker is not running');
        },
      },
      { name: 'redis', check: async () => void (await queue.getJobCounts('waiting')) },
      { name: 'postgres', check: async () => void (await db.$queryRaw`SELECT 1`) },
    );
    health = await startProbeServer(config.HEALTH_PORT, readiness);
  } catch (error) {
    await close();
    throw error;
  }
  logger.info('webhooks worker started', {
    queue: `${prefix}:${DELIVERY_QUEUE}`,
    concurrency: config.CONCURRENCY,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    healthPort: config.HEALTH_PORT,
  });
  return { close };
}

/**
 * Whether the job was started before without its outcome reaching Redis: its worker died (or lost
 * Redis) during an attempt, and the job came back when its lock lapsed. That attempt may have been
 * answered 2xx and recorded in Postgres, the one place its outcome survived.
 */
function resumedAfterStall(job: Job<DeliveryJob>): boolean {
  return job.stalledCounter > 0 || job.attemptsStarted > job.attemptsMade + 1;
}

function reportFailure(logger: Logger, job: Job<DeliveryJob> | undefined, error: Error): void {
  if (job === undefined) return;
  const fields = { webhookId: job.data.webhookId, eventId: job.data.event.id, attempt: job.attemptsMade, error: error.message };
  if (!(error instanceof AttemptFailed)) {
    logger.error('attempt broke off', fields);
  } else if (job.attemptsMade >= (job.opts.attempts ?? 1)) {
    deliveriesGivenUp.inc();
    logger.error('event given up after its last attempt', fields);
  } else {
    logger.warn('attempt failed, retrying', fields);
  }
}
