import { z } from 'zod';
import type { PlanName } from '../pricing';

/**
 * Webhooks (issue 38; docs/API.md §4.7, docs/ARCHITECTURE.md decision 38): an account registers an
 * HTTPS endpoint and the addresses it watches; events reach it signed as Standard Webhooks. The
 * secret appears in one reply only, the creation's.
 */

/** Addresses one webhook watches at most (any plan). */
export const WEBHOOK_MAX_ADDRESSES = 100;
/** Longest target URL accepted. */
export const WEBHOOK_URL_MAX_LENGTH = 2_048;

/** What a plan may register: webhooks per account and addresses per webhook. */
export const WEBHOOK_PLAN_LIMITS: Record<PlanName, { webhooks: number; addresses: number }> = {
  free: { webhooks: 2, addresses: 10 },
  pro: { webhooks: 20, addresses: WEBHOOK_MAX_ADDRESSES },
  enterprise: { webhooks: 100, addresses: WEBHOOK_MAX_ADDRESSES },
};

/** A 0x-prefixed 20-byte hex address; the gateway checks its EIP-55 checksum and stores the checksummed form. */
const HexAddress = z
  .string()
  .trim()
  .regex(/^0[xX][0-9a-fA-F]{40}$/, {
    message: 'must be a 0x-prefixed 40-hex-digit address (names are not accepted: resolve them first)',
  });

export const CreateWebhookBody = z.strictObject({
  url: z.string().trim().min(1, { message: 'must be a URL' }).max(WEBHOOK_URL_MAX_LENGTH),
  addresses: z
    .array(HexAddress)
    .min(1, { message: 'must name at least one address' })
    .max(WEBHOOK_MAX_ADDRESSES, { message: `must name at most ${WEBHOOK_MAX_ADDRESSES} addresses` }),
  /** Score points a change must reach to be sent (scores run from 300 to 1000). */
  min_change: z.number().int().min(1).max(700),
});
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const WebhookItem = z.object({
  /** `wh_…` */
  id: z.string(),
  url: z.string(),
  /** Checksummed, in the order given, without repeats. */
  addresses: z.array(z.string()),
  min_change: z.number().int(),
  created_at: z.string(),
});
export type WebhookItem = z.infer<typeof WebhookItem>;

/** The creation's reply: the item and its signing secret (`whsec_…`), shown this once. */
export const CreatedWebhookReply = WebhookItem.extend({ secret: z.string() });
export type CreatedWebhookReply = z.infer<typeof CreatedWebhookReply>;

export const WebhooksReply = z.object({ webhooks: z.array(WebhookItem) });
export type WebhooksReply = z.infer<typeof WebhooksReply>;

/** One attempt to deliver one event: its HTTP status, or why there was none. */
export const DeliveryItem = z.object({
  event_id: z.string(),
  event_type: z.string(),
  sequence: z.number().int(),
  /** 1 for the first attempt; retries count up (a worker restarted mid-attempt may repeat a number). */
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  /** Null when the endpoint answered 2xx; otherwise what went wrong (`HTTP 500`, `timed out after 10000 ms`, …). */
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  attempted_at: z.string(),
});
export type DeliveryItem = z.infer<typeof DeliveryItem>;

/** The webhook's latest attempts, newest first (at most `WEBHOOK_DELIVERIES_LISTED`). */
export const DeliveriesReply = z.object({ deliveries: z.array(DeliveryItem) });
export type DeliveriesReply = z.infer<typeof DeliveriesReply>;
export const WEBHOOK_DELIVERIES_LISTED = 100;

/** The dashboard's webhooks page (`GET /dashboard/api/webhooks`): each webhook with its latest attempts. */
export const DashboardWebhooksReply = z.object({ webhooks: z.array(WebhookItem.extend({ deliveries: z.array(DeliveryItem) })) });
export type DashboardWebhooksReply = z.infer<typeof DashboardWebhooksReply>;

/** `POST /webhooks/{id}/test`: the ping is queued (202); its attempts appear under deliveries. */
export const TestWebhookReply = z.object({ event_id: z.string(), sequence: z.number().int() });
export type TestWebhookReply = z.infer<typeof TestWebhookReply>;

/**
 * What the endpoint receives, as the body of a POST signed per Standard Webhooks. `id` is the event's
 * (also the `webhook-id` header) and stays the same across retries; `sequence` counts the webhook's
 * events from 1 in the order they were queued, so a receiver can order them (retries may reorder).
 */
export const WebhookEvent = z.object({
  type: z.string().regex(/^[a-z]+(\.[a-z_]+)*$/),
  id: z.string().regex(/^evt_[0-9A-Za-z]+$/),
  created_at: z.string(),
  sequence: z.number().int().positive(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** The `ping` event's data: which webhook it tests. */
export const PingData = z.object({ webhook_id: z.string() });
export type PingData = z.infer<typeof PingData>;

/** A score as a `score.changed` event shows it. */
const EventScore = z.object({ score: z.number().int(), decile: z.number().int(), range: z.string() });

/**
 * The `score.changed` event's data: a watched address whose score moved by at least the webhook's
 * `min_change` since the last score stored for it (its baseline at creation, then each event's),
 * and the labels of the factors whose points or rating moved.
 */
export const ScoreChangedData = z.object({
  address: z.string(),
  previous: EventScore,
  current: EventScore,
  factors_changed: z.array(z.string()),
});
export type ScoreChangedData = z.infer<typeof ScoreChangedData>;

/** CU one queued `score.changed` costs its account (retries are free); `WEBHOOK_OPERATIONS` prices the rest. */
export const SCORE_CHANGED_CU = 1;
