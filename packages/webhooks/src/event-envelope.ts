import { randomBytes } from 'node:crypto';
import { WebhookEvent } from '@credit/contracts/schemas/webhooks';

/** A new event id, `evt_` and 26 hex digits of randomness: the `webhook-id` of every attempt. */
export function newEventId(): string {
  return `evt_${randomBytes(13).toString('hex')}`;
}

/** The envelope of an event of any type, checked against the contract before it is queued. */
export function newEvent(type: string, data: Record<string, unknown>, sequence: number, now: Date = new Date()): WebhookEvent {
  return WebhookEvent.parse({ type, id: newEventId(), created_at: now.toISOString(), sequence, data });
}
