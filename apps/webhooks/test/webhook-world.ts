import { Queue } from 'bullmq';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { AccountRepository } from '@credit/db/account-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { WebhookRepository, type WebhookRecord } from '@credit/db/webhook-repository';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DELIVERY_QUEUE, deliveryJobOptions, deliveryQueuePrefix, type DeliveryJob } from '@credit/webhook-delivery/delivery-queue';
import { newEvent } from '@credit/webhook-delivery/event-envelope';
import { generateSecret } from '@credit/webhook-delivery/signing';

/** A real Postgres database with an account, and a delivery queue under a prefix of the test's own. */
export interface WebhookWorld {
  databaseUrl: string;
  prefix: string;
  db: Db;
  webhooks: WebhookRepository;
  queue: Queue<DeliveryJob>;
  /** A webhook of the world's account, targeting `url`, with its secret. */
  createWebhook(url: string): Promise<WebhookRecord & { secret: string }>;
  /**
   * Queues the webhook's next event with the catalog's options, except for a backoff the test can
   * wait for (the catalog's first retry is 10.5 s away) and, when given, fewer attempts.
   */
  queueEvent(webhookId: string, options?: { attempts?: number }): Promise<DeliveryJob>;
  close(): Promise<void>;
}

export async function startWebhookWorld(redisUrl: string): Promise<WebhookWorld> {
  const database: TestDatabase = await createTestDatabase();
  const db = createPrismaClient(database.url);
  const webhooks = new WebhookRepository(db);
  const { account } = await new AccountRepository(db).findOrCreateByEmail(`${uniquePrefix('u')}@example.com`, 'pro');
  const prefix = uniquePrefix('whw');
  const queue = new Queue<DeliveryJob>(DELIVERY_QUEUE, { connection: redisOptionsFromUrl(redisUrl), prefix: deliveryQueuePrefix(prefix) });
  // A test that kills its Redis on purpose: the connection's errors are expected, and it reconnects.
  queue.on('error', () => undefined);
  return {
    databaseUrl: database.url,
    prefix,
    db,
    webhooks,
    queue,
    async createWebhook(url) {
      const secret = generateSecret();
      const record = await webhooks.createWithinLimit(
        { accountId: account.id, url, addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'], minChange: 10, secret },
        100,
      );
      return { ...record!, secret };
    },
    async queueEvent(webhookId, options = {}) {
      const sequence = (await webhooks.nextSequence(account.id, webhookId))!;
      const job = { webhookId, event: newEvent('ping', { webhook_id: webhookId }, sequence) };
      await queue.add(job.event.type, job, {
        ...deliveryJobOptions(job),
        backoff: { type: 'fixed', delay: 200 },
        ...(options.attempts !== undefined && { attempts: options.attempts }),
      });
      return job;
    },
    async close() {
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
      await db.$disconnect();
      await database.drop();
    },
  };
}
