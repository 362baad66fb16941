import { Queue } from 'bullmq';
import { z } from 'zod';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { WebhookEvent } from '@credit/contracts/schemas/webhooks';

/**
 * The delivery queue, the one contract between whoever queues events (the gateway's ping, later the
 * score-change detector) and the worker (apps/webhooks). The name carries the payload's version: a
 * worker never reads a job in a format it does not know.
 */
export const DELIVERY_QUEUE = 'webhooks.delivery.v1';

/** A job: one event for one webhook. The target and secret are read at each attempt (a deleted webhook gets nothing). */
export const DeliveryJob = z.object({ webhookId: z.string().regex(/^wh_[0-9A-Za-z]+$/), event: WebhookEvent });
export type DeliveryJob = z.infer<typeof DeliveryJob>;

/**
 * Attempts: the first, then 13 retries, the n-th `RETRY_BASE_MS · 2^(n-1)` after the one before, so
 * the last starts 10.5 s · (2^13 − 1) ≈ 23 h 53 min after the first failure: retried for 24 hours.
 */
export const DELIVERY_ATTEMPTS = 14;
export const RETRY_BASE_MS = 10_500;

/** Add options: the event id as job id (queued twice, sent once), backoff, a week's record of what was given up. */
export function deliveryJobOptions(job: DeliveryJob) {
  return {
    jobId: job.event.id,
    attempts: DELIVERY_ATTEMPTS,
    backoff: { type: 'exponential', delay: RETRY_BASE_MS },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
  } as const;
}

/** BullMQ's key prefix: the stack's (NATS_SUBJECT_PREFIX, as the gateway's other queues) and `webhooks`. */
export function deliveryQueuePrefix(stackPrefix: string): string {
  return stackPrefix === '' ? 'webhooks' : `${stackPrefix}:webhooks`;
}

/** How long a producer waits for Redis to take a job before it gives up. */
const ENQUEUE_TIMEOUT_MS = 2_000;

/** The producer's side of the queue. */
export class DeliveryQueue {
  private readonly queue: Queue<DeliveryJob>;

  constructor(redisUrl: string, stackPrefix: string) {
    this.queue = new Queue<DeliveryJob>(DELIVERY_QUEUE, {
      connection: redisOptionsFromUrl(redisUrl),
      prefix: deliveryQueuePrefix(stackPrefix),
    });
  }

  /** Reports the queue connection's errors (a producer keeps running while Redis is away). */
  onError(listener: (error: Error) => void): void {
    this.queue.on('error', listener);
  }

  /** Queues one event for one webhook; rejects when Redis does not take it within 2 s. */
  async add(job: DeliveryJob): Promise<void> {
    const checked = DeliveryJob.parse(job);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the delivery queue did not take the job within ${ENQUEUE_TIMEOUT_MS} ms`)),
        ENQUEUE_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.queue.add(checked.event.type, checked, deliveryJobOptions(checked)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
