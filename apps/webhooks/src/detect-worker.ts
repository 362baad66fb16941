import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { createPrismaClient } from '@credit/db/prisma-client';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { WebhookScoreRepository } from '@credit/db/webhook-score-repository';
import { Meter } from '@credit/metering/meter';
import { MeterKeys } from '@credit/metering/meter-keys';
import { connectNats, natsAuthOf } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import { DeliveryQueue } from '@credit/webhook-delivery/delivery-queue';
import { DETECT_QUEUE, DetectJob } from '@credit/webhook-delivery/detect-queue';
import type { WebhooksConfig } from './config';
import { BaselinePending, detectScoreChanges, type DetectDeps } from './detect-score-changes';
import { chargeEvent } from './event-charges';
import type { Logger } from './logger';
import { queueScoreChange } from './queue-score-change';

export interface RunningDetector {
  /** Stops taking jobs, lets the detections under way finish, closes its connections. */
  close(): Promise<void>;
}

/**
 * The score-change detector (issue 38; decision 38): a BullMQ worker on the indexer's detection
 * queue (any number of replicas share it). Each job is one committed range, detected by
 * `detectScoreChanges`: scores from the scoring service over NATS (`credit.score.watch.v1`, its
 * timeout from the contracts), events charged through the metering and put on the delivery queue.
 */
export async function startDetector(config: WebhooksConfig, logger: Logger): Promise<RunningDetector> {
  const db = createPrismaClient(config.DATABASE_URL, { applicationName: 'credit-webhooks-detector' });
  const nc = await connectNats({ url: config.NATS_URL, name: 'webhooks', ...natsAuthOf(config) }).catch(async (error: unknown) => {
    await db.$disconnect();
    throw error;
  });
  const rpc = new RpcClient(nc, config.NATS_SUBJECT_PREFIX);
  const meterRedis = new Redis({ ...redisOptionsFromUrl(config.REDIS_URL), maxRetriesPerRequest: 1 });
  meterRedis.on('error', () => undefined); // a failed charge fails its detection, which is retried
  const meter = new Meter(meterRedis, new MeterKeys(config.NATS_SUBJECT_PREFIX), new UsageLedgerRepository(db));
  const delivery = new DeliveryQueue(config.REDIS_URL, config.NATS_SUBJECT_PREFIX);
  delivery.onError((error) => logger.warn('delivery queue connection', { error: error.message }));
  const webhooks = new WebhookRepository(db);
  const deps: DetectDeps = {
    scores: new WebhookScoreRepository(db),
    scoreNow: async (addresses) => (await rpc.send('credit.score.watch.v1', { addresses })).scores,
    notify: (change) =>
      queueScoreChange(change, {
        webhooks,
        queue: delivery,
        charge: config.METERING === 'off' ? () => Promise.resolve(true) : (watch, eventId) => chargeEvent(meter, watch, eventId),
      }),
  };

  const worker = new Worker<DetectJob>(
    DETECT_QUEUE,
    async (job) => {
      const data = DetectJob.parse(job.data);
      const result = await detectScoreChanges(data, deps);
      if (result.queued > 0 || result.notCharged > 0) logger.info('score changes', { ...data, ...result });
      return result;
    },
    {
      connection: { ...redisOptionsFromUrl(config.REDIS_URL), maxRetriesPerRequest: null },
      prefix: config.INDEXER_QUEUE_PREFIX,
      concurrency: config.DETECT_CONCURRENCY,
    },
  );
  worker.on('failed', (job, error) => {
    const last = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
    const fields = { jobId: job?.id, attempt: job?.attemptsMade, error: error.message };
    if (last) logger.error('detection given up', fields);
    else if (!(error instanceof BaselinePending)) logger.warn('detection failed, retrying', fields);
  });
  worker.on('error', (error) => logger.error('detector error', { error: error.message }));
  logger.info('score-change detector started', { queue: `${config.INDEXER_QUEUE_PREFIX}:${DETECT_QUEUE}` });

  let running = true;
  return {
    async close() {
      if (!running) return;
      running = false;
      await worker.close();
      await delivery.close();
      rpc.close();
      await nc.drain().catch(() => undefined);
      meterRedis.disconnect();
      await db.$disconnect();
    },
  };
}
