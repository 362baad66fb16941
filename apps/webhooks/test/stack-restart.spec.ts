import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { AccountRepository } from '@credit/db/account-repository';
import { migrate } from '@credit/db/migrate';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { WebhookRepository } from '@credit/db/webhook-repository';
import { freePort, startPrivateNats, type PrivateNats } from '@credit/testing/private-nats';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DELIVERY_QUEUE, deliveryJobOptions, deliveryQueuePrefix, type DeliveryJob } from '@credit/webhook-delivery/delivery-queue';
import { newEvent } from '@credit/webhook-delivery/event-envelope';
import { generateSecret } from '@credit/webhook-delivery/signing';
import { startPersistentRedis, type PersistentRedis } from './persistent-redis';
import { startPrivatePostgres, type PrivatePostgres } from './private-postgres';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '@credit/testing/webhook-receiver';

/**
 * Issue 38: "A restart of the whole stack in the middle of a retry schedule loses no event and
 * sends none twice to a receiver that answered 2xx." Everything the delivery side runs on is the
 * test's own and is stopped and started again on the same data: a Postgres (initdb), a Redis with
 * an append-only file, a nats-server (the detector the worker runs connects to it), and two
 * replicas of the worker as it ships (`dist/main.js`; `pnpm build` first). Events are queued with
 * the production job options (14 attempts, exponential backoff); the schedule is compressed by the
 * worker's `WEBHOOK_RETRY_BASE_MS` only.
 */
const WORKER_MAIN = join(__dirname, '..', 'dist', 'main.js');
/** Retries 2.5 s, 5 s, 10 s … after the failures: long enough to stop everything while they wait. */
const RETRY_BASE_MS = 2_500;
const JOB_LOCK_MS = 1_500;
const REPLICAS = 2;

/** How many 500s an event gets before its 2xx. */
type Plan = 0 | 1 | 2;

interface Sent {
  job: DeliveryJob;
  plan: Plan;
  receiver: WebhookReceiver;
}

interface Worker {
  child: ChildProcess;
  log: string[];
}

/** The stack: its private services, the worker replicas, and the test's own connections. */
class Stack {
  db!: Db;
  queue!: Queue<DeliveryJob>;
  private connection!: Redis;
  workers: Worker[] = [];
  /** Every line the worker replicas logged, across restarts. */
  readonly log: string[] = [];
  readonly prefix = uniquePrefix('wsr');

  constructor(
    readonly pg: PrivatePostgres,
    readonly redis: PersistentRedis,
    readonly nats: PrivateNats,
    readonly databaseUrl: string,
  ) {}

  connect(): void {
    this.db = createPrismaClient(this.databaseUrl);
    this.connection = new Redis(redisOptionsFromUrl(this.redis.url));
    // Redis is stopped on purpose: the connection's errors are expected.
    this.connection.on('error', () => undefined);
    this.queue = new Queue<DeliveryJob>(DELIVERY_QUEUE, { connection: this.connection, prefix: deliveryQueuePrefix(this.prefix) });
    this.queue.on('error', () => undefined);
  }

  async disconnect(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
    await this.db.$disconnect();
  }

  /** Drops the test's connections without a goodbye (its Redis is gone: nothing to close cleanly). */
  async dropConnections(): Promise<void> {
    this.connection.disconnect();
    await this.db.$disconnect();
  }

  async startWorkers(): Promise<void> {
    this.workers = await Promise.all(Array.from({ length: REPLICAS }, () => this.spawnWorker()));
  }

  private async spawnWorker(): Promise<Worker> {
    const port = await freePort();
    const env = {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redis.url,
      NATS_URL: this.nats.url,
      NATS_SUBJECT_PREFIX: this.prefix,
      INDEXER_QUEUE_PREFIX: this.prefix,
      HEALTH_PORT: String(port),
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      JOB_LOCK_MS: String(JOB_LOCK_MS),
      METERING: 'off',
    };
    const child = spawn(process.execPath, [WORKER_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const log: string[] = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        log.push(line);
        this.log.push(line);
      });
    }
    await eventually('a worker replica ready', async () => {
      if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}): ${log.join('\n')}`);
      return (await fetch(`http://127.0.0.1:${port}/ready`).catch(() => undefined))?.ok ? true : undefined;
    });
    return { child, log };
  }

  /** Ends every replica with `signal`; answers their exit codes (null when killed). */
  async stopWorkers(signal: 'SIGTERM' | 'SIGKILL'): Promise<(number | null)[]> {
    const codes = await Promise.all(
      this.workers.map(
        ({ child }) =>
          new Promise<number | null>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
            child.once('exit', (code) => resolve(code));
            child.kill(signal);
          }),
      ),
    );
    this.workers = [];
    return codes;
  }
}

/** Requests a receiver got for one event. */
const requestsFor = (receiver: WebhookReceiver, eventId: string | undefined) =>
  receiver.received.filter((r) => r.headers['webhook-id'] === eventId);

/** A receiver that answers 500 to the first `plan` attempts of each event, then 200; `onRequest` sees each. */
async function plannedReceiver(plans: Map<string, Plan>, onRequest: (eventId: string) => void = () => undefined): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver();
  receiver.answer((request) => {
    const eventId = request.headers['webhook-id'] ?? '';
    onRequest(eventId);
    return requestsFor(receiver, eventId).length <= (plans.get(eventId) ?? 0) ? 500 : 200;
  });
  return receiver;
}

describe('whole stack restarted in the middle of a retry schedule', () => {
  let pg: PrivatePostgres;
  let redis: PersistentRedis;
  let nats: PrivateNats;
  let stack: Stack | undefined;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    [pg, redis, nats] = await Promise.all([startPrivatePostgres(), startPersistentRedis(), startPrivateNats()]);
  });

  afterEach(async () => {
    await stack?.stopWorkers('SIGKILL');
    await stack?.disconnect().catch(() => undefined);
    stack = undefined;
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  afterAll(async () => {
    await Promise.all([pg?.remove(), redis?.remove(), nats?.stop()]);
  });

  /** A fresh database on the private Postgres, an account, and a stack on it with its replicas running. */
  async function startStack(): Promise<{ stack: Stack; createWebhook(url: string): Promise<string>; accountId: string }> {
    const databaseUrl = pg.createDatabase(`credit_${uniquePrefix('r')}`);
    await migrate(databaseUrl);
    const started = new Stack(pg, redis, nats, databaseUrl);
    started.connect();
    stack = started;
    const { account } = await new AccountRepository(started.db).findOrCreateByEmail(`${uniquePrefix('u')}@example.com`, 'pro');
    await started.startWorkers();
    return {
      stack: started,
      accountId: account.id,
      async createWebhook(url) {
        const record = await new WebhookRepository(started.db).createWithinLimit(
          {
            accountId: account.id,
            url,
            addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'],
            minChange: 10,
            secret: generateSecret(),
          },
          100,
        );
        return record!.id;
      },
    };
  }

  /** Numbers and queues an event as the producers do, with the production job options. */
  async function queueEvent(s: Stack, accountId: string, webhookId: string): Promise<DeliveryJob> {
    const sequence = (await new WebhookRepository(s.db).nextSequence(accountId, webhookId))!;
    const job = { webhookId, event: newEvent('ping', { webhook_id: webhookId }, sequence) };
    await s.queue.add(job.event.type, job, deliveryJobOptions(job));
    return job;
  }

  /** Waits until every event's job has left the queue (completed jobs are removed) and nothing is left in any state. */
  async function drained(s: Stack, sent: Sent[]): Promise<void> {
    await eventually(
      'every event delivered and its job gone',
      async () => {
        const delivered = sent.every(({ job, plan, receiver }) => requestsFor(receiver, job.event.id).length > plan);
        if (!delivered) return undefined;
        const counts = await s.queue.getJobCounts('active', 'waiting', 'delayed', 'failed', 'prioritized', 'waiting-children');
        return Object.values(counts).every((n) => n === 0) ? true : undefined;
      },
      40_000,
    );
    // Time for a second delivery of any event to show up (a stalled job is taken again after the lock, 1.5 s).
    await new Promise((r) => setTimeout(r, 2 * JOB_LOCK_MS + 500));
  }

  /** What must hold once everything is delivered. */
  async function expectDeliveredOnce(s: Stack, sent: Sent[], answeredBeforeStop: Map<string, number>): Promise<void> {
    const rows = await s.db.webhookDelivery.findMany({ orderBy: { id: 'asc' } });
    for (const { job, plan, receiver } of sent) {
      const id = job.event.id;
      const requests = requestsFor(receiver, id);
      // `plan` 500s, then one 2xx, and nothing after it: the receiver answered 2xx exactly once.
      expect({ id, requests: requests.length }).toEqual({ id, requests: plan + 1 });
      for (const request of requests) {
        const body = JSON.parse(request.body) as DeliveryJob['event'];
        expect({ id: body.id, sequence: body.sequence }).toEqual({ id, sequence: job.event.sequence });
      }
      // An event answered 2xx before the stop was not sent again after it.
      if (answeredBeforeStop.has(id)) expect(requests.length).toBe(answeredBeforeStop.get(id));
      // Its record: attempts 1, 2, … with the same id and sequence, one 2xx, the last.
      const attempts = rows.filter((r) => r.eventId === id);
      expect(attempts.map((r) => [r.webhookId, Number(r.sequence), r.attempt, r.statusCode])).toEqual(
        Array.from({ length: plan + 1 }, (_, i) => [job.webhookId, job.event.sequence, i + 1, i < plan ? 500 : 200]),
      );
    }
    // No receiver got another webhook's events, nor any event not queued.
    for (const receiver of new Set(sent.map((x) => x.receiver))) {
      const mine = new Set(sent.filter((x) => x.receiver === receiver).map((x) => x.job.event.id));
      expect(receiver.received.filter((r) => !mine.has(r.headers['webhook-id'] ?? ''))).toEqual([]);
    }
    // Per webhook, the sequence numbers increase in the order the events were queued, without repeats.
    for (const webhookId of new Set(sent.map((x) => x.job.webhookId))) {
      const sequences = sent.filter((x) => x.job.webhookId === webhookId).map((x) => x.job.event.sequence);
      expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    }
    expect(rows.filter((r) => r.statusCode === 200)).toHaveLength(sent.length);
  }

  /** Events queued to two webhooks (one receiver each), 0, 1 or 2 failures before the 2xx, interleaved. */
  async function queueMixed(
    s: Stack,
    accountId: string,
    targets: { webhookId: string; receiver: WebhookReceiver }[],
    plans: Map<string, Plan>,
    pattern: Plan[],
  ): Promise<Sent[]> {
    const sent: Sent[] = [];
    for (const [i, plan] of pattern.entries()) {
      const { webhookId, receiver } = targets[i % targets.length]!;
      const job = await queueEvent(s, accountId, webhookId);
      plans.set(job.event.id, plan);
      sent.push({ job, plan, receiver });
    }
    return sent;
  }

  /** Until each event has had its first attempt: 2xx ones delivered, the others' jobs waiting out their backoff. */
  async function firstRoundDone(s: Stack, sent: Sent[]): Promise<Map<string, number>> {
    await eventually('every event attempted once, the failed ones in their backoff', async () => {
      for (const { job, plan, receiver } of sent) {
        const seen = requestsFor(receiver, job.event.id).length;
        if (seen < 1) return undefined;
        const state = await s.queue.getJobState(job.event.id);
        if (plan === 0 ? state !== 'unknown' : state !== 'delayed') return undefined;
      }
      return true;
    });
    const answered = new Map<string, number>();
    for (const { job, plan, receiver } of sent) {
      const seen = requestsFor(receiver, job.event.id).length;
      // nothing of the failing ones was delivered yet: they are in the middle of their schedule
      if (plan > 0) expect(seen).toBeLessThanOrEqual(plan);
      else answered.set(job.event.id, seen);
    }
    return answered;
  }

  it('clean shutdown of everything (SIGTERM, Redis and Postgres shut down) while retries wait: each event 2xx exactly once', async () => {
    const plans = new Map<string, Plan>();
    const receiverA = await plannedReceiver(plans);
    const receiverB = await plannedReceiver(plans);
    receivers.push(receiverA, receiverB);
    const { stack: s, accountId, createWebhook } = await startStack();
    const targets = [
      { webhookId: await createWebhook(receiverA.url), receiver: receiverA },
      { webhookId: await createWebhook(receiverB.url), receiver: receiverB },
    ];
    const sent = await queueMixed(s, accountId, targets, plans, [0, 1, 2, 0, 1, 2, 0, 1, 0, 2, 1, 0]);
    const answeredBeforeStop = await firstRoundDone(s, sent);

    // Stop everything, cleanly: the replicas drain and exit 0, then the test's connections, Redis, Postgres, NATS.
    expect(await s.stopWorkers('SIGTERM')).toEqual(Array(REPLICAS).fill(0));
    await s.disconnect();
    await redis.stop();
    await pg.stop('fast');
    await nats.stop();

    await Promise.all([pg.start(), redis.start(), nats.start()]);
    s.connect();
    await s.startWorkers();
    await drained(s, sent);
    await expectDeliveredOnce(s, sent, answeredBeforeStop);
    // A clean stop leaves no attempt without its outcome in Redis: nothing had to be checked against Postgres.
    expect(s.log.filter((line) => line.includes('not sent again'))).toEqual([]);
  }, 60_000);

  it('crash of everything (SIGKILL, Redis killed, Postgres immediate) while retries wait and a 2xx is not yet in Redis', async () => {
    const plans = new Map<string, Plan>();
    let frozenOn: string | undefined;
    // The 2xx of this event is answered while Redis is frozen: recorded in Postgres, never in the queue.
    const caught = { eventId: '' };
    const receiverA = await plannedReceiver(plans, (eventId) => {
      if (eventId === caught.eventId && frozenOn === undefined) {
        frozenOn = eventId;
        redis.freeze();
      }
    });
    const receiverB = await plannedReceiver(plans);
    receivers.push(receiverA, receiverB);
    const { stack: s, accountId, createWebhook } = await startStack();
    const targets = [
      { webhookId: await createWebhook(receiverA.url), receiver: receiverA },
      { webhookId: await createWebhook(receiverB.url), receiver: receiverB },
    ];
    const sent = await queueMixed(s, accountId, targets, plans, [1, 0, 2, 1, 0, 1, 2, 0]);
    const answeredBeforeStop = await firstRoundDone(s, sent);

    const [last] = (await queueMixed(s, accountId, targets.slice(0, 1), plans, [0])) as [Sent];
    caught.eventId = last.job.event.id;
    sent.push(last);
    await eventually('the 2xx recorded in Postgres while Redis is frozen', async () =>
      (await s.db.webhookDelivery.findFirst({ where: { eventId: caught.eventId, statusCode: 200 } })) ? true : undefined,
    );
    expect(frozenOn).toBe(caught.eventId);
    answeredBeforeStop.set(caught.eventId, 1);

    // Crash everything: the replicas (one of them waits on the frozen Redis to complete the job), Redis, Postgres, NATS.
    await s.stopWorkers('SIGKILL');
    await redis.kill();
    await s.dropConnections();
    await pg.stop('immediate');
    await nats.stop();

    await Promise.all([pg.start(), redis.start(), nats.start()]);
    s.connect();
    // The job of the caught event is still active in Redis, its lock held by a dead replica.
    expect(await s.queue.getJobState(caught.eventId)).toBe('active');
    // Every 2xx on record before the replicas come back. Another event's retry may also have been
    // answered while Redis was frozen; like the caught one, it must not be sent again.
    const okBeforeRestart = new Set((await s.db.webhookDelivery.findMany({ where: { statusCode: 200 } })).map((row) => row.eventId));
    await s.startWorkers();
    await drained(s, sent);
    await expectDeliveredOnce(s, sent, answeredBeforeStop);
    // The caught event came back when its lock lapsed, and the replica that took it found its 2xx on
    // record; so did any other whose 2xx never reached Redis. None of them was sent again.
    const notSentAgain = s.log
      .filter((line) => line.includes('not sent again'))
      .map((line) => (JSON.parse(line) as { eventId: string }).eventId);
    expect(notSentAgain).toContain(caught.eventId);
    expect(notSentAgain.filter((eventId) => !okBeforeRestart.has(eventId))).toEqual([]);
    expect(new Set(notSentAgain).size).toBe(notSentAgain.length);
  }, 60_000);
});
