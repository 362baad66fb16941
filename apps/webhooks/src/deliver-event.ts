import type { WebhookRepository } from '@credit/db/webhook-repository';
import type { DeliveryJob } from '@credit/webhook-delivery/delivery-queue';
import { signedHeaders } from '@credit/webhook-delivery/signing';
import { checkTarget, TargetRefused, type TargetPolicy } from '@credit/webhook-delivery/url-guard';
import { postEvent, type PostOutcome } from './post-event';
import { deliveryAttempts, deliverySeconds } from './webhook-metrics';

export interface DeliverDeps {
  webhooks: Pick<WebhookRepository, 'findTarget' | 'recordAttempt'>;
  policy: TargetPolicy;
  /** One attempt's time limit (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  now?: () => Date;
}

/** An attempt that did not end in a 2xx: thrown, so that BullMQ retries the job with its backoff. */
export class AttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttemptFailed';
  }
}

/**
 * One attempt to deliver one event: the webhook read now (deleted: nothing to do), its URL checked
 * again with a fresh resolution, the body signed with this attempt's timestamp and POSTed to the
 * checked addresses, the attempt recorded. Anything but a 2xx throws `AttemptFailed`.
 */
export async function deliverEvent(job: DeliveryJob, attempt: number, deps: DeliverDeps): Promise<'delivered' | 'webhook_deleted'> {
  const target = await deps.webhooks.findTarget(job.webhookId);
  if (target === null) return 'webhook_deleted';
  const attemptedAt = (deps.now ?? (() => new Date()))();
  const started = performance.now();
  const body = JSON.stringify(job.event);
  let outcome: PostOutcome;
  try {
    const checked = await checkTarget(target.url, deps.policy);
    outcome = await postEvent(checked, body, signedHeaders(target.secret, job.event.id, body, attemptedAt), deps.timeoutMs);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    outcome = { kind: 'failed', error: error.message };
  }
  const durationMs = Math.round(performance.now() - started);
  const statusCode = outcome.kind === 'answered' ? outcome.statusCode : null;
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  const error = outcome.kind === 'failed' ? outcome.error : delivered ? null : `HTTP ${statusCode}`;
  deliveryAttempts.inc({ outcome: delivered ? 'delivered' : statusCode !== null ? 'refused' : 'failed' });
  deliverySeconds.observe(durationMs / 1000);
  await deps.webhooks.recordAttempt({
    webhookId: job.webhookId,
    eventId: job.event.id,
    eventType: job.event.type,
    sequence: job.event.sequence,
    attempt,
    statusCode,
    error,
    durationMs,
    attemptedAt,
  });
  if (!delivered) throw new AttemptFailed(error ?? 'not delivered');
  return 'delivered';
}
