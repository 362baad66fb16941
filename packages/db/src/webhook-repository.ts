import { randomBase62 } from '@credit/contracts/api-key';
import type { Db } from './prisma-client';

/** A stored webhook as its owner sees it: never its secret. */
export interface WebhookRecord {
  /** `wh_…` */
  id: string;
  accountId: string;
  url: string;
  addresses: string[];
  minChange: number;
  createdAt: Date;
}

/** What the delivery worker needs to send an event: where, and the key to sign with. */
export interface WebhookTarget {
  id: string;
  url: string;
  /** `whsec_…` */
  secret: string;
}

export interface NewWebhook {
  accountId: string;
  url: string;
  addresses: string[];
  minChange: number;
  secret: string;
}

/** One attempt to deliver one event, as the worker records it. */
export interface DeliveryAttempt {
  webhookId: string;
  eventId: string;
  eventType: string;
  sequence: number;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: Date;
}

/**
 * The `webhooks` and `webhook_deliveries` tables (issue 38). Every read and change the API makes
 * names the owning account, so another account's webhook is as absent as one that does not exist.
 */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  /**
   * A new webhook unless the account already holds `maxWebhooks` (null then), exact under any
   * concurrency: the account's row is locked (`FOR UPDATE`) and the count taken after the lock.
   */
  async createWithinLimit(input: NewWebhook, maxWebhooks: number): Promise<WebhookRecord | null> {
    const [, inserted] = await this.db.$transaction([
      this.db.$queryRaw`SELECT "id" FROM "accounts" WHERE "id" = ${input.accountId} FOR UPDATE`,
      this.db.$queryRaw<WebhookRecord[]>`
        INSERT INTO "webhooks" ("id", "account_id", "url", "addresses", "min_change", "secret")
        SELECT ${`wh_${randomBase62(20)}`}, a."id", ${input.url}, ${input.addresses}::text[], ${input.minChange}, ${input.secret}
        FROM "accounts" AS a
        WHERE a."id" = ${input.accountId}
          AND (SELECT count(*) FROM "webhooks" WHERE "account_id" = a."id") < ${maxWebhooks}
        RETURNING "id", "account_id" AS "accountId", "url", "addresses", "min_change" AS "minChange", "created_at" AS "createdAt"`,
    ]);
    return inserted[0] ?? null;
  }

  /** The account's webhooks, oldest first. */
  async listOwned(accountId: string): Promise<WebhookRecord[]> {
    return this.db.webhook.findMany({ where: { accountId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: RECORD });
  }

  async findOwned(accountId: string, id: string): Promise<WebhookRecord | null> {
    return this.db.webhook.findFirst({ where: { id, accountId }, select: RECORD });
  }

  /** Deletes the webhook and its delivery record; false when the account holds no such webhook. */
  async deleteOwned(accountId: string, id: string): Promise<boolean> {
    const { count } = await this.db.webhook.deleteMany({ where: { id, accountId } });
    return count > 0;
  }

  /**
   * The next sequence number of the webhook's events (1, 2, …), taken as an event is queued; null
   * when the account holds no such webhook. One row update, so concurrent events get distinct numbers.
   */
  async nextSequence(accountId: string, id: string): Promise<number | null> {
    const rows = await this.db.$queryRaw<{ last_sequence: bigint }[]>`
      UPDATE "webhooks" SET "last_sequence" = "last_sequence" + 1
      WHERE "id" = ${id} AND "account_id" = ${accountId}
      RETURNING "last_sequence"`;
    return rows[0] === undefined ? null : Number(rows[0].last_sequence);
  }

  /** Where to send the webhook's events and the secret to sign them with; null once it is deleted. */
  async findTarget(id: string): Promise<WebhookTarget | null> {
    return this.db.webhook.findUnique({ where: { id }, select: { id: true, url: true, secret: true } });
  }

  /** Whether an attempt of the event to the webhook was answered 2xx (an index lookup on `(webhook_id, event_id)`). */
  async wasDelivered(webhookId: string, eventId: string): Promise<boolean> {
    const found = await this.db.webhookDelivery.findFirst({
      where: { webhookId, eventId, statusCode: { gte: 200, lte: 299 } },
      select: { id: true },
    });
    return found !== null;
  }

  /** Records one attempt; nothing when the webhook was deleted meanwhile (its record went with it). */
  async recordAttempt(attempt: DeliveryAttempt): Promise<void> {
    await this.db.$executeRaw`
      INSERT INTO "webhook_deliveries"
        ("webhook_id", "event_id", "event_type", "sequence", "attempt", "status_code", "error", "duration_ms", "attempted_at")
      SELECT w."id", ${attempt.eventId}, ${attempt.eventType}, ${attempt.sequence}, ${attempt.attempt}, ${attempt.statusCode},
             ${attempt.error}, ${attempt.durationMs}, ${attempt.attemptedAt}
      FROM "webhooks" AS w WHERE w."id" = ${attempt.webhookId}`;
  }

  /** The webhook's latest attempts, newest first; null when the account holds no such webhook. */
  async deliveriesOwned(accountId: string, id: string, limit: number): Promise<DeliveryAttempt[] | null> {
    const webhook = await this.db.webhook.findFirst({
      where: { id, accountId },
      select: { deliveries: { orderBy: { id: 'desc' }, take: limit } },
    });
    if (webhook === null) return null;
    return webhook.deliveries.map((row) => ({
      webhookId: row.webhookId,
      eventId: row.eventId,
      eventType: row.eventType,
      sequence: Number(row.sequence),
      attempt: row.attempt,
      statusCode: row.statusCode,
      error: row.error,
      durationMs: row.durationMs,
      attemptedAt: row.attemptedAt,
    }));
  }
}

const RECORD = { id: true, accountId: true, url: true, addresses: true, minChange: true, createdAt: true } as const;
