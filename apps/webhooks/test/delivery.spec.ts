import { Webhook } from 'standardwebhooks';
import { freePort } from '@credit/testing/private-nats';
import { webhooksConfig } from '../src/config';
import { AttemptFailed, deliverEvent } from '../src/deliver-event';
import { startDeliveryWorker, type RunningDeliveryWorker } from '../src/delivery-worker';
import { silentLogger } from '../src/logger';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '@credit/testing/webhook-receiver';
import { startWebhookWorld, type WebhookWorld } from './webhook-world';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The worker in-process against real Postgres, Redis (a prefix of its own) and a local HTTP receiver. */
describe('the delivery worker', () => {
  let world: WebhookWorld;
  let receiver: WebhookReceiver;
  let worker: RunningDeliveryWorker;
  let probe: string;

  beforeAll(async () => {
    world = await startWebhookWorld(REDIS_URL);
    receiver = await startWebhookReceiver();
    const healthPort = await freePort();
    probe = `http://127.0.0.1:${healthPort}`;
    const config = webhooksConfig({
      DATABASE_URL: world.databaseUrl,
      REDIS_URL,
      NATS_SUBJECT_PREFIX: world.prefix,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_TIMEOUT_MS: '500',
    });
    worker = await startDeliveryWorker(config, silentLogger);
  });

  afterAll(async () => {
    await worker.close();
    await receiver.close();
    await world.close();
  });

  beforeEach(() => receiver.received.splice(0));

  it('delivers an event signed as Standard Webhooks, and records the attempt', async () => {
    receiver.answer(() => 204);
    const webhook = await world.createWebhook(receiver.url);
    const job = await world.queueEvent(webhook.id);
    await receiver.waitFor(1);
    const [request] = receiver.received;
    expect(new Webhook(webhook.secret).verify(request!.body, request!.headers)).toEqual(job.event);
    expect(request!.headers['webhook-id']).toBe(job.event.id);
    expect(request!.headers['content-type']).toBe('application/json');
    const attempts = await eventually('the attempt recorded', async () => {
      const rows = await world.webhooks.deliveriesOwned(webhook.accountId, webhook.id, 10);
      return rows?.length === 1 ? rows : undefined;
    });
    expect(attempts[0]).toMatchObject({ eventId: job.event.id, eventType: 'ping', sequence: 1, attempt: 1, statusCode: 204, error: null });
    await eventually('the job removed', async () => ((await world.queue.getJob(job.event.id)) === undefined ? true : undefined));
  });

  it('retries a non-2xx and a timeout under the same event id, then delivers', async () => {
    receiver.answer((_request, n) => (n === 1 ? 500 : n === 2 ? 'hang' : 200));
    const webhook = await world.createWebhook(receiver.url);
    const job = await world.queueEvent(webhook.id);
    await receiver.waitFor(3);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([job.event.id, job.event.id, job.event.id]);
    for (const request of receiver.received) expect(new Webhook(webhook.secret).verify(request.body, request.headers)).toEqual(job.event);
    const attempts = await eventually('three attempts recorded', async () => {
      const rows = await world.webhooks.deliveriesOwned(webhook.accountId, webhook.id, 10);
      return rows?.length === 3 ? rows.reverse() : undefined;
    });
    expect(attempts.map(({ attempt, statusCode, error }) => ({ attempt, statusCode, error }))).toEqual([
      { attempt: 1, statusCode: 500, error: 'HTTP 500' },
      { attempt: 2, statusCode: null, error: 'timed out after 500 ms' },
      { attempt: 3, statusCode: 200, error: null },
    ]);
    expect(attempts[1]!.durationMs).toBeGreaterThanOrEqual(490);
  });

  it('numbers a webhook’s events in the order they were queued', async () => {
    receiver.answer(() => 200);
    const webhook = await world.createWebhook(receiver.url);
    for (let i = 0; i < 5; i++) await world.queueEvent(webhook.id);
    await receiver.waitFor(5);
    const sequences = receiver.received.map((r) => (JSON.parse(r.body) as { sequence: number }).sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives an event up after its last attempt, each attempt recorded', async () => {
    receiver.answer(() => 503);
    const webhook = await world.createWebhook(receiver.url);
    const job = await world.queueEvent(webhook.id, { attempts: 2 });
    const state = await eventually('the job failed', async () => {
      const found = await world.queue.getJob(job.event.id);
      const current = found && (await found.getState());
      return current === 'failed' ? current : undefined;
    });
    expect(state).toBe('failed');
    expect(receiver.received).toHaveLength(2);
    expect((await world.webhooks.deliveriesOwned(webhook.accountId, webhook.id, 10))!.map((a) => a.attempt)).toEqual([2, 1]);
  });

  it('serves /health, /ready and /metrics on its probe port', async () => {
    expect((await fetch(`${probe}/health`)).status).toBe(200);
    expect(await (await fetch(`${probe}/ready`)).json()).toEqual({ status: 'ok' });
    const metrics = await (await fetch(`${probe}/metrics`)).text();
    expect(metrics).toMatch(/credit_webhook_attempts_total\{outcome="delivered",service="webhooks"\} \d+/);
    expect(metrics).toContain('credit_webhook_events_given_up_total');
  });
});

describe('deliverEvent', () => {
  let world: WebhookWorld;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    world = await startWebhookWorld(REDIS_URL);
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await receiver.close();
    await world.close();
  });

  it('checks the target again at each attempt: a private address is refused without WEBHOOK_ALLOW_PRIVATE', async () => {
    const webhook = await world.createWebhook(receiver.url);
    const job = await world.queueEvent(webhook.id);
    const attempt = deliverEvent(job, 1, { webhooks: world.webhooks, policy: { allowPrivate: false }, timeoutMs: 1_000 });
    await expect(attempt).rejects.toThrow(AttemptFailed);
    expect(receiver.received).toHaveLength(0);
    const [recorded] = (await world.webhooks.deliveriesOwned(webhook.accountId, webhook.id, 10))!;
    expect(recorded).toMatchObject({ statusCode: null, error: 'url: must be https' });
  });

  it('drops the event of a deleted webhook', async () => {
    const webhook = await world.createWebhook(receiver.url);
    const job = await world.queueEvent(webhook.id);
    await world.webhooks.deleteOwned(webhook.accountId, webhook.id);
    await expect(deliverEvent(job, 1, { webhooks: world.webhooks, policy: { allowPrivate: true }, timeoutMs: 1_000 })).resolves.toBe(
      'webhook_deleted',
    );
    expect(receiver.received).toHaveLength(0);
  });
});
