import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@credit/testing/private-nats';
import { webhooksConfig } from '../src/config';
import { startDeliveryWorker } from '../src/delivery-worker';
import { silentLogger } from '../src/logger';
import { startPersistentRedis, type PersistentRedis } from './persistent-redis';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '@credit/testing/webhook-receiver';
import { startWebhookWorld, type WebhookWorld } from './webhook-world';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The worker as it ships: its build (`pnpm build` first, as for the fault suite). */
const WORKER_MAIN = join(__dirname, '..', 'dist', 'main.js');

/** A job's lock lapses this long after its worker stops renewing it; then another worker takes it. */
const JOB_LOCK_MS = '1500';

/** Polls until the event is delivered (a 2xx attempt recorded) and its job left the queue. */
async function deliveredAndGone(world: WebhookWorld, webhook: { accountId: string; id: string }, eventId: string): Promise<void> {
  await eventually(
    'a 2xx attempt recorded and the job removed',
    async () => {
      const attempts = await world.webhooks.deliveriesOwned(webhook.accountId, webhook.id, 20);
      const delivered = attempts?.some((a) => a.eventId === eventId && a.statusCode === 200);
      return delivered && (await world.queue.getJob(eventId)) === undefined ? true : undefined;
    },
    45_000,
  );
}

describe('durable delivery', () => {
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });

  afterAll(() => receiver.close());

  beforeEach(() => receiver.received.splice(0));

  it('a worker process killed mid-delivery: another worker delivers the event, same id', async () => {
    const world = await startWebhookWorld(REDIS_URL);
    const env = {
      ...process.env,
      DATABASE_URL: world.databaseUrl,
      REDIS_URL,
      NATS_SUBJECT_PREFIX: world.prefix,
      // the detector it also runs takes only this test's detection jobs
      INDEXER_QUEUE_PREFIX: world.prefix,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: '1',
      JOB_LOCK_MS,
    };
    const spawnWorker = async (): Promise<ChildProcess> => {
      const port = await freePort();
      const child = spawn(process.execPath, [WORKER_MAIN], { env: { ...env, HEALTH_PORT: String(port) }, stdio: 'ignore' });
      await eventually('the worker ready', async () =>
        (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok ? true : undefined,
      );
      return child;
    };
    const first = await spawnWorker();
    let second: ChildProcess | undefined;
    try {
      // The first attempt is held open; the worker dies while it waits for the answer.
      receiver.answer((_request, n) => (n === 1 ? 'hang' : 200));
      const webhook = await world.createWebhook(receiver.url);
      const job = await world.queueEvent(webhook.id);
      await receiver.waitFor(1);
      await new Promise<void>((resolve) => {
        first.once('exit', () => resolve());
        first.kill('SIGKILL');
      });
      second = await spawnWorker();
      await deliveredAndGone(world, webhook, job.event.id);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([job.event.id, job.event.id]);
    } finally {
      first.kill('SIGKILL');
      second?.kill('SIGTERM');
      await world.close();
    }
  });

  it('Redis killed mid-delivery and started again (append-only file): the event is delivered', async () => {
    const redis: PersistentRedis = await startPersistentRedis();
    const world = await startWebhookWorld(redis.url);
    const worker = await startDeliveryWorker(
      webhooksConfig({
        DATABASE_URL: world.databaseUrl,
        REDIS_URL: redis.url,
        NATS_SUBJECT_PREFIX: world.prefix,
        LOG_LEVEL: 'silent',
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_TIMEOUT_MS: '1000',
        JOB_LOCK_MS,
      }),
      silentLogger,
    );
    try {
      receiver.answer((_request, n) => (n === 1 ? 'hang' : 200));
      const webhook = await world.createWebhook(receiver.url);
      const job = await world.queueEvent(webhook.id);
      await receiver.waitFor(1);
      await redis.kill();
      // The held attempt times out while Redis is away; its outcome cannot be written.
      await new Promise((r) => setTimeout(r, 1_500));
      await redis.start();
      await deliveredAndGone(world, webhook, job.event.id);
      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([job.event.id]));
    } finally {
      await worker.close();
      await world.close();
      await redis.remove();
    }
  });
});
