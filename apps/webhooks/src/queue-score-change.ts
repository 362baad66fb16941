import type { ScoreChangedData } from '@credit/contracts/schemas/webhooks';
import type { Watch } from '@credit/db/webhook-score-repository';
import type { WebhookRepository } from '@credit/db/webhook-repository';
import type { DeliveryQueue } from '@credit/webhook-delivery/delivery-queue';
import { newEvent } from '@credit/webhook-delivery/event-envelope';

/** A change to send: which webhook and address, and the event's data. */
export interface ScoreChange {
  watch: Watch;
  data: ScoreChangedData;
}

export interface QueueChangeDeps {
  webhooks: Pick<WebhookRepository, 'nextSequence' | 'recordAttempt'>;
  queue: Pick<DeliveryQueue, 'add'>;
  /** Charges the event's CU to the account; false when its monthly allowance has no room for it. */
  charge(watch: Watch, eventId: string): Promise<boolean>;
  now?: () => Date;
}

/** What the webhook's delivery record says of an event its account could not pay for. */
export const NOT_CHARGED = 'not sent: the monthly CU allowance is used up (credit_limit_exceeded)';

/**
 * Numbers a `score.changed` (the webhook's next sequence), charges its 1 CU, and puts it on the
 * delivery queue. An account out of CU gets no event: the numbered event is recorded in the
 * webhook's deliveries as attempt 0 with `NOT_CHARGED`, so the gap in the sequence is explained,
 * and the caller stores the new score all the same (the next event compares with it).
 */
export async function queueScoreChange(change: ScoreChange, deps: QueueChangeDeps): Promise<'queued' | 'not_charged' | 'webhook_deleted'> {
  const { watch } = change;
  const sequence = await deps.webhooks.nextSequence(watch.accountId, watch.webhookId);
  if (sequence === null) return 'webhook_deleted';
  const event = newEvent('score.changed', change.data, sequence, (deps.now ?? (() => new Date()))());
  if (!(await deps.charge(watch, event.id))) {
    await deps.webhooks.recordAttempt({
      webhookId: watch.webhookId,
      eventId: event.id,
      eventType: event.type,
      sequence,
      attempt: 0,
      statusCode: null,
      error: NOT_CHARGED,
      durationMs: 0,
      attemptedAt: new Date(event.created_at),
    });
    return 'not_charged';
  }
  await deps.queue.add({ webhookId: watch.webhookId, event });
  return 'queued';
}
