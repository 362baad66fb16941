import { DomainError } from '@credit/contracts/errors';
import type { DeliveryItem, WebhookItem } from '@credit/contracts/schemas/webhooks';
import type { DeliveryAttempt, WebhookRecord } from '@credit/db/webhook-repository';

/** A webhook id as issued (`wh_` and 20 base62 characters); anything else names no webhook. */
const WEBHOOK_ID = /^wh_[0-9A-Za-z]{20}$/;

/** The 404 of a webhook that does not exist or belongs to another account (the two are not told apart). */
export function webhookNotFound(id: string): DomainError {
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return new DomainError('route_not_found', `No webhook ${shown} in this account`);
}

/** The path's id, checked for shape before any query: a malformed one is the same 404. */
export function webhookId(id: string): string {
  if (!WEBHOOK_ID.test(id)) throw webhookNotFound(id);
  return id;
}

export function toWebhookItem(record: WebhookRecord): WebhookItem {
  return {
    id: record.id,
    url: record.url,
    addresses: record.addresses,
    min_change: record.minChange,
    created_at: record.createdAt.toISOString(),
  };
}

export function toDeliveryItem(attempt: DeliveryAttempt): DeliveryItem {
  return {
    event_id: attempt.eventId,
    event_type: attempt.eventType,
    sequence: attempt.sequence,
    attempt: attempt.attempt,
    status_code: attempt.statusCode,
    error: attempt.error,
    duration_ms: attempt.durationMs,
    attempted_at: attempt.attemptedAt.toISOString(),
  };
}
