import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { connect, type NatsConnection, type Subscription } from 'nats';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { UNLIMITED_RATES } from '@credit/testing/unlimited-rates';
import { DELIVERY_QUEUE, DeliveryJob, deliveryQueuePrefix } from '@credit/webhook-delivery/delivery-queue';
import { gatewayConfig } from '../config';
import { startGateway, type RunningGateway } from '../create-gateway';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const A = '0x52908400098527886E0F7030069857D2E4169EE7';
const B = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

/**
 * The scoring service's part in a creation, `credit.score.watch.v1` (the baselines; decision 38),
 * answered on the test's prefix: every address a score of 700, with no factors. The score itself is
 * the scoring service's business (score-changed-webhooks.devnet.spec.ts runs the real one).
 */
function answerWatchedScores(nc: NatsConnection, prefix: string): Subscription {
  return nc.subscribe(`${prefix}.credit.score.watch.v1`, {
    callback: (_error, msg) => {
      const { id, data } = msg.json<{ id: string; data: { addresses: string[] } }>();
      const scores = data.addresses.map((address) => ({ address, score: 700, decile: 5, range: 'good', factors: [] }));
      msg.respond(JSON.stringify({ id, response: { scores }, isDisposed: true }));
    },
  });
}

/** The webhook routes over real HTTP: the gateway on a real Postgres database, Redis (its own prefix) and NATS. */
describe('/api/v2/webhooks', () => {
  const prefix = uniquePrefix('wh');
  let database: TestDatabase;
  let db: Db;
  let gateway: RunningGateway;
  let receiver: Server;
  let target: string;
  let queue: Queue<DeliveryJob>;
  let nc: NatsConnection;
  let scoring: Subscription;

  async function newKey(plan: 'free' | 'pro' = 'pro'): Promise<string> {
    const { account } = await new AccountRepository(db).findOrCreateByEmail(`${uniquePrefix('u')}@example.com`, plan);
    return (await new ApiKeyRepository(db).create({ accountId: account.id, name: 'test' })).key;
  }

  async function call(method: string, path: string, key: string | undefined, body?: unknown) {
    const headers: Record<string, string> = {};
    if (key !== undefined) headers.authorization = `Bearer ${key}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${gateway.url}/api/v2/webhooks${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted, not typed
    return { status: res.status, headers: res.headers, body: (text === '' ? undefined : JSON.parse(text)) as any };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPrismaClient(database.url);
    receiver = createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const config = gatewayConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      NATS_URL,
      NATS_SUBJECT_PREFIX: prefix,
      DATABASE_URL: database.url,
      REDIS_URL,
      WEBHOOK_ALLOW_PRIVATE: '1',
      ...UNLIMITED_RATES,
    });
    gateway = await startGateway(config, { silent: true });
    nc = await connect({ servers: NATS_URL });
    scoring = answerWatchedScores(nc, prefix);
    queue = new Queue<DeliveryJob>(DELIVERY_QUEUE, {
      connection: { host: '127.0.0.1', port: Number(new URL(REDIS_URL).port || 6379) },
      prefix: deliveryQueuePrefix(prefix),
    });
  });

  afterAll(async () => {
    await nc.drain();
    await queue.obliterate({ force: true });
    await queue.close();
    await gateway.close();
    receiver.close();
    await db.$disconnect();
    await database.drop();
    const redis = new Redis(REDIS_URL);
    for (const pattern of [`${prefix}*`, `*${prefix}*`]) {
      const keys = await redis.keys(pattern);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis.disconnect();
  });

  it('creates a webhook (secret shown once, addresses checksummed and deduplicated), lists, reads and deletes it', async () => {
    const key = await newKey();
    const created = await call('POST', '', key, { url: target, addresses: [A.toLowerCase(), A, B], min_change: 25 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Za-z]{20}$/),
      url: target,
      addresses: [A, B],
      min_change: 25,
      secret: expect.stringMatching(/^whsec_/),
      created_at: expect.any(String),
    });
    // 1 CU per watched address, charged at creation
    expect(created.headers.get('x-cu-cost')).toBe('2');
    const { id } = created.body;
    const { secret: _secret, ...item } = created.body;

    expect(await call('GET', '', key)).toMatchObject({ status: 200, body: { webhooks: [item] } });
    expect(await call('GET', `/${id}`, key)).toMatchObject({ status: 200, body: item });
    expect(JSON.stringify((await call('GET', `/${id}`, key)).body)).not.toContain('whsec_');
    expect(await call('GET', `/${id}/deliveries`, key)).toMatchObject({ status: 200, body: { deliveries: [] } });

    expect((await call('DELETE', `/${id}`, key)).status).toBe(204);
    expect((await call('GET', `/${id}`, key)).status).toBe(404);
    expect((await call('DELETE', `/${id}`, key)).status).toBe(404);
  });

  it('stores each address’s score as its baseline before answering 201', async () => {
    const { body } = await call('POST', '', await newKey(), { url: target, addresses: [A, B], min_change: 5 });
    const rows = await db.webhookScore.findMany({ where: { webhookId: body.id }, orderBy: { address: 'asc' } });
    expect(rows.map(({ address, score, range }) => ({ address, score, range }))).toEqual(
      [A, B].sort().map((address) => ({ address, score: 700, range: 'good' })),
    );
  });

  it('refuses a creation with 503 when the scores to start from cannot be read: nothing kept, nothing charged', async () => {
    const key = await newKey();
    scoring.unsubscribe();
    try {
      const res = await call('POST', '', key, { url: target, addresses: [A], min_change: 5 });
      expect(res.status).toBe(503);
      expect(res.headers.get('x-cu-cost')).toBe('0');
      expect((await call('GET', '', key)).body).toEqual({ webhooks: [] });
    } finally {
      scoring = answerWatchedScores(nc, prefix);
    }
  });

  it("answers 404 for another account's webhook, on every route", async () => {
    const owner = await newKey();
    const other = await newKey();
    const { body } = await call('POST', '', owner, { url: target, addresses: [A], min_change: 10 });
    for (const [method, path] of [
      ['GET', `/${body.id}`],
      ['GET', `/${body.id}/deliveries`],
      ['POST', `/${body.id}/test`],
      ['DELETE', `/${body.id}`],
    ] as const) {
      const res = await call(method, path, other);
      expect(res).toMatchObject({ status: 404, body: { detail: `No webhook ${body.id} in this account` } });
    }
    expect((await call('GET', '', other)).body).toEqual({ webhooks: [] });
    expect((await call('GET', `/${body.id}`, owner)).status).toBe(200);
    expect((await call('GET', '/wh_nope', owner)).status).toBe(404);
  });

  it('queues a ping on BullMQ with the next sequence number', async () => {
    const key = await newKey();
    const { body } = await call('POST', '', key, { url: target, addresses: [A], min_change: 10 });
    const first = await call('POST', `/${body.id}/test`, key);
    const second = await call('POST', `/${body.id}/test`, key);
    expect(first).toMatchObject({ status: 202, body: { event_id: expect.stringMatching(/^evt_/), sequence: 1 } });
    expect(second.body.sequence).toBe(2);
    expect(first.headers.get('x-cu-cost')).toBe('1');
    const job = await queue.getJob(first.body.event_id);
    expect(DeliveryJob.parse(job!.data)).toEqual({
      webhookId: body.id,
      event: { type: 'ping', id: first.body.event_id, created_at: expect.any(String), sequence: 1, data: { webhook_id: body.id } },
    });
    expect(job!.opts).toMatchObject({ attempts: 14, backoff: { type: 'exponential', delay: 10_500 } });
  });

  /** Never connected to: the routes only check it (http to 127.0.0.1, allowed with WEBHOOK_ALLOW_PRIVATE). */
  const url = 'http://127.0.0.1:9/hook';
  it.each([
    ['no address', { url, addresses: [], min_change: 10 }, 'addresses: must name at least one address'],
    ['101 addresses', { url, addresses: Array.from({ length: 101 }, () => A), min_change: 10 }, 'addresses: must name at most 100'],
    ['an ENS name', { url, addresses: ['vitalik.eth'], min_change: 10 }, 'names are not accepted: resolve them first'],
    ['a bad checksum', { url, addresses: [`${A.slice(0, 39)}Ee7`], min_change: 10 }, 'bad EIP-55 checksum'],
    ['min_change 0', { url, addresses: [A], min_change: 0 }, 'min_change: '],
    ['no min_change', { url, addresses: [A] }, 'min_change: '],
    ['an ftp URL', { url: 'ftp://127.0.0.1/x', addresses: [A], min_change: 10 }, 'url: must be http or https'],
    ['an unknown field', { url, addresses: [A], min_change: 10, extra: 1 }, 'body: '],
    ['a string body', 'not json', 'body: '],
  ])('refuses %s with 400 {error}', async (_label, body, message) => {
    const res = await call('POST', '', await newKey(), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringContaining(message) });
    expect(res.body.error).not.toContain('url: Invalid');
    expect(res.headers.get('x-cu-cost')).toBeNull();
  });

  it('enforces the plan limits: addresses per webhook, webhooks per account', async () => {
    const key = await newKey('free');
    const eleven = Array.from({ length: 11 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const tooMany = await call('POST', '', key, { url: target, addresses: eleven, min_change: 10 });
    expect(tooMany).toMatchObject({ status: 403, body: { detail: 'The free plan watches at most 10 addresses per webhook' } });
    for (let i = 0; i < 2; i++) expect((await call('POST', '', key, { url: target, addresses: [A], min_change: 10 })).status).toBe(201);
    const third = await call('POST', '', key, { url: target, addresses: [A], min_change: 10 });
    expect(third).toMatchObject({ status: 403, body: { detail: 'The free plan holds at most 2 webhooks: delete one first' } });
    // refused after admission: the CU reserved is given back
    expect(third.headers.get('x-cu-cost')).toBe('0');
  });

  it('creations racing for the last places: exactly the plan’s limit is kept, the others refused and not charged', async () => {
    const key = await newKey('free');
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call('POST', '', key, { url: target, addresses: [A], min_change: 10 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403, 403, 403, 403, 403]);
    for (const refused of results.filter((r) => r.status === 403)) expect(refused.headers.get('x-cu-cost')).toBe('0');
    expect((await call('GET', '', key)).body.webhooks).toHaveLength(2);
  });

  it('is in the OpenAPI document, with its prices', async () => {
    const doc = (await (await fetch(`${gateway.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; 'x-credit-units': unknown }>>;
    };
    expect(doc.paths['/api/v2/webhooks']!.post).toMatchObject({
      operationId: 'webhooksCreate',
      'x-credit-units': { kind: 'per_address', cu: 1 },
    });
    expect(Object.keys(doc.paths['/api/v2/webhooks/{id}']!).sort()).toEqual(['delete', 'get']);
    expect(doc.paths['/api/v2/webhooks/{id}/test']!.post!.operationId).toBe('webhooksTest');
    expect(doc.paths['/api/v2/webhooks/{id}/deliveries']!.get!.operationId).toBe('webhooksDeliveries');
  });

  it('asks for a key', async () => {
    expect((await call('GET', '', undefined)).status).toBe(401);
    expect((await call('POST', '', 'ck_live_nope', { url: target, addresses: [A], min_change: 10 })).status).toBe(401);
  });
});
