import { Redis } from 'ioredis';
import { allowanceOf } from '@credit/contracts/pricing';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import type { Watch } from '@credit/db/webhook-score-repository';
import { Meter } from '@credit/metering/meter';
import { MeterKeys } from '@credit/metering/meter-keys';
import { DeliveryQueue } from '@credit/webhook-delivery/delivery-queue';
import { chargeEvent, SCORE_CHANGED_OPERATION } from '../src/event-charges';
import { NOT_CHARGED, queueScoreChange, type QueueChangeDeps } from '../src/queue-score-change';
import { startWebhookWorld, type WebhookWorld } from './webhook-world';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** `queueScoreChange` with the real metering (Redis, the ledger in Postgres) and the real delivery queue. */
describe('a score.changed is charged when it is queued', () => {
  let world: WebhookWorld;
  let redis: Redis;
  let meter: Meter;
  let delivery: DeliveryQueue;
  let deps: QueueChangeDeps;

  beforeAll(async () => {
    world = await startWebhookWorld(REDIS_URL);
    redis = new Redis(REDIS_URL);
    meter = new Meter(redis, new MeterKeys(world.prefix), new UsageLedgerRepository(world.db));
    delivery = new DeliveryQueue(REDIS_URL, world.prefix);
    deps = { webhooks: world.webhooks, queue: delivery, charge: (watch, eventId) => chargeEvent(meter, watch, eventId) };
  });

  afterAll(async () => {
    await delivery.close();
    const keys = await redis.keys(`${world.prefix}:meter:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await world.close();
  });

  const change = (watch: Watch) => ({
    watch,
    data: {
      address: ADDRESS,
      previous: { score: 780, decile: 7, range: 'good' },
      current: { score: 690, decile: 4, range: 'fair' },
      factors_changed: ['Wallet Health'],
    },
  });

  it('charges 1 CU and queues the event; out of CU, records the numbered event as not sent and queues nothing', async () => {
    const webhook = await world.createWebhook('http://127.0.0.1:9/hook');
    const watch: Watch = {
      webhookId: webhook.id,
      accountId: webhook.accountId,
      plan: 'pro',
      monthlyCu: null,
      minChange: 10,
      address: ADDRESS,
    };

    expect(await queueScoreChange(change(watch), deps)).toBe('queued');
    const [job] = await world.queue.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(job!.data).toMatchObject({ webhookId: webhook.id, event: { type: 'score.changed', sequence: 1, data: change(watch).data } });
    const usage = await meter.usage(webhook.accountId);
    expect(usage.byOperation[SCORE_CHANGED_OPERATION]).toBe(1);

    // the rest of the month's allowance spent elsewhere
    const allowance = allowanceOf('pro', null)!;
    const spent = await meter.admit({
      accountId: webhook.accountId,
      keyId: null,
      operation: 'scoreBatch',
      cost: allowance - usage.used,
      allowance,
      policy: { name: 'test', capacity: 10, windowMs: 1_000 },
      requestId: 'spend',
    });
    expect(spent.kind).toBe('admitted');

    expect(await queueScoreChange(change(watch), deps)).toBe('not_charged');
    expect(await world.queue.getJobs(['waiting', 'prioritized', 'delayed'])).toHaveLength(1);
    const [recorded] = (await world.webhooks.deliveriesOwned(webhook.accountId, webhook.id, 10))!;
    expect(recorded).toMatchObject({ eventType: 'score.changed', sequence: 2, attempt: 0, statusCode: null, error: NOT_CHARGED });
    expect((await meter.usage(webhook.accountId)).byOperation[SCORE_CHANGED_OPERATION]).toBe(1);
  });

  it('numbers, charges and queues nothing for a webhook deleted meanwhile', async () => {
    const webhook = await world.createWebhook('http://127.0.0.1:9/hook');
    await world.webhooks.deleteOwned(webhook.accountId, webhook.id);
    const watch: Watch = {
      webhookId: webhook.id,
      accountId: webhook.accountId,
      plan: 'pro',
      monthlyCu: null,
      minChange: 10,
      address: ADDRESS,
    };
    expect(await queueScoreChange(change(watch), deps)).toBe('webhook_deleted');
  });
});
