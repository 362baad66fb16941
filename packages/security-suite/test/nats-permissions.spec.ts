import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { connect, type NatsConnection } from 'nats';
import { getAddress } from 'viem';
import { runCli } from '@credit/cli/run-cli';
import { EVENTS } from '@credit/contracts/events';
import { HEALTH_SUBJECTS } from '@credit/contracts/health-subjects';
import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { SUBJECT_NAMES, SUBJECTS, type SubjectName } from '@credit/contracts/subjects';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { PaymentRepository } from '@credit/db/payment-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { signedX402Payment } from '@credit/devnet/x402-payment';
import { gatewayConfig } from '@credit/gateway/config';
import { startGateway, type RunningGateway } from '@credit/gateway/create-gateway';
import { RevokeKey } from '@credit/gateway/dashboard/revoke-key';
import { NATS_CONNECTION } from '@credit/gateway/rpc/nats.providers';
import { publishEvent } from '@credit/rpc/event-publisher';
import { connectNats } from '@credit/rpc/nats-connection';
import { PermissionWatch, PublishRefusedError } from '@credit/rpc/nats-permissions';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { SandboxModule } from '@credit/sandbox/sandbox.module';
import { scoringConfig } from '@credit/scoring/config';
import { ScoringModule } from '@credit/scoring/scoring.module';
import { http } from '@credit/test-stack/test-stack';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { startIndexedDevnet, type IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { startPaymentsService, type RunningPayments } from '@credit/test-world/payments-service';
import { startPrivateNats, type PrivateNats } from '@credit/testing/private-nats';
import { startPrivateRedis, type PrivateRedis } from '@credit/testing/private-redis';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { UNLIMITED_RATES } from '@credit/testing/unlimited-rates';

/**
 * The shipped NATS permissions (infra/nats/auth.conf, as compose and Kubernetes include it) with
 * the real apps on them, each under its own user: a revocation made on one gateway replica reaches
 * the others, an x402 payment settles (gateway → payments → chain, and the paid score through
 * scoring and identity), no app reads another's replies, and what the file refuses is refused,
 * visibly. Everything runs unprefixed (the file names unprefixed subjects) on a NATS, a Redis, a
 * database and a devnet of this file's own.
 */
jest.setTimeout(300_000);

const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const AUTH_CONF = read('infra/nats/auth.conf');
const USERS = [...AUTH_CONF.matchAll(/^\s*user: (\w+)$/gm)].map((m) => m[1]!);
// A password must start with a letter: nats-server reads `$VARIABLE` values as config tokens, and
// one that starts with a digit is taken for a number (or fails to parse).
const PASSWORDS = Object.fromEntries(USERS.map((u) => [u, `pw${randomBytes(12).toString('hex')}`]));
const asUser = (user: string) => ({ NATS_USER: user, NATS_PASSWORD: PASSWORDS[user]! });

let nats: PrivateNats;
let redis: PrivateRedis;
let database: TestDatabase;
let db: Db;
let world: IndexedDevnet;
let identity: RunningIdentity;
let payments: RunningPayments;
const services: RunningService[] = [];
const gateways: RunningGateway[] = [];
const connections: NatsConnection[] = [];
const errors: string[] = [];

beforeAll(async () => {
  nats = await startPrivateNats({
    config: AUTH_CONF, // what `include auth.conf` reads
    env: Object.fromEntries(USERS.map((u) => [`NATS_${u.toUpperCase()}_PASSWORD`, PASSWORDS[u]!])),
  });
  redis = await startPrivateRedis();
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
  world = await startIndexedDevnet({
    devnet: seededDevnetOptions({ seed: 'nats-permissions', populationSize: 4 }),
    databaseUrl: database.url,
    redisUrl: redis.url,
  });
  const env = { NATS_URL: nats.url, NATS_SUBJECT_PREFIX: '', DATABASE_URL: database.url, REDIS_URL: redis.url, HEALTH_PORT: '0' };
  identity = await startIdentityService({
    natsUrl: nats.url,
    prefix: '',
    redisUrl: redis.url,
    databaseUrl: database.url,
    registry: world.registry,
    cast: world.devnet.state.cast,
    env: asUser('identity'),
  });
  const scoring = scoringConfig({ ...env, CHAINS: JSON.stringify(world.registry), ...asUser('scoring') });
  services.push(
    await startService(ScoringModule.forRoot(scoring), {
      service: 'scoring',
      natsUrl: nats.url,
      natsAuth: { user: 'scoring', password: PASSWORDS.scoring },
      subjectPrefix: '',
      healthPort: 0,
      silent: true,
    }),
    await startService(SandboxModule, {
      service: 'sandbox',
      natsUrl: nats.url,
      natsAuth: { user: 'sandbox', password: PASSWORDS.sandbox },
      subjectPrefix: '',
      healthPort: 0,
      silent: true,
    }),
  );
  payments = await startPaymentsService({
    natsUrl: nats.url,
    prefix: '',
    redisUrl: redis.url,
    databaseUrl: database.url,
    payments: world.devnet.state.payments,
    env: asUser('payments'),
  });
  // Two gateway replicas; keys stay cached a minute, so only the broadcast can make a revocation quick.
  const gatewayEnv = {
    ...env,
    ...UNLIMITED_RATES,
    ...payments.gatewayEnv,
    ...asUser('gateway'),
    HOST: '127.0.0.1',
    PORT: '0',
    KEY_CACHE_TTL_MS: '60000',
  };
  for (let i = 0; i < 2; i++) gateways.push(await startGateway(gatewayConfig(gatewayEnv), { silent: true }));
  jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void errors.push(String(message)));
}, 600_000);

afterAll(async () => {
  jest.restoreAllMocks();
  for (const nc of connections) await nc.close().catch(() => undefined);
  await Promise.all(gateways.map((g) => g.close()));
  await payments?.close();
  await Promise.all(services.map((s) => s.close()));
  await identity?.close();
  await world?.close();
  await db?.$disconnect();
  await database?.drop();
  await redis?.stop();
  await nats?.stop();
});

const as = async (user: string) => {
  const nc = await connectNats({ url: nats.url, name: `attacker-as-${user}`, user, password: PASSWORDS[user]! });
  connections.push(nc);
  return nc;
};

/**
 * The server's verdict on a subscription (in `queue` when given): its refusal comes before the
 * flush's PONG. An allowed one is ended at once, so it never takes a request from the real service.
 */
async function subscriptionRefused(nc: NatsConnection, subject: string, queue?: string): Promise<boolean> {
  let refused = false;
  const stop = PermissionWatch.of(nc).onViolation((v) => {
    if (v.operation === 'subscription' && v.subject === subject && v.queue === queue) refused = true;
  });
  const subscription = nc.subscribe(subject, queue ? { queue } : {});
  await nc.flush();
  await new Promise<void>((resolve) => setImmediate(resolve));
  stop();
  subscription.unsubscribe();
  return refused;
}

/** Whether the server refuses a publish, as the platform's publishers find out (PermissionWatch). */
async function publishRefused(nc: NatsConnection, subject: string): Promise<boolean> {
  try {
    await PermissionWatch.of(nc).publishConfirmed(subject, () => nc.publish(subject, '{}'), 2_000);
    return false;
  } catch (error) {
    if (error instanceof PublishRefusedError) return true;
    throw error;
  }
}

async function newKey(): Promise<{ key: string; keyId: string; accountId: string }> {
  const { account } = await new AccountRepository(db).findOrCreateByEmail(`nats-${randomBytes(5).toString('hex')}@example.com`, 'free');
  const created = await new ApiKeyRepository(db).create({ accountId: account.id, name: 'nats-permissions' });
  return { key: created.key, keyId: created.keyId, accountId: account.id };
}

/** Both replicas have served (and cached) the key. */
async function cachedOnBoth(key: string): Promise<void> {
  for (const g of gateways) expect((await http(g.url, '/users/me', { key })).status).toBe(200);
}

/** Each replica answers 401 for the key within a second of `since`. */
async function refusedEverywhereWithin1s(key: string, since: number): Promise<void> {
  for (const g of gateways) {
    let status = 0;
    while (status !== 401 && Date.now() < since + 1_000) status = (await http(g.url, '/users/me', { key })).status;
    expect({ replica: g.url, status }).toEqual({ replica: g.url, status: 401 });
  }
}

describe('revocation reaches every gateway replica', () => {
  it('a key revoked in one replica’s dashboard answers 401 on the other within a second', async () => {
    const { key, keyId, accountId } = await newKey();
    await cachedOnBoth(key);
    const since = Date.now();
    await gateways[0]!.app.get(RevokeKey).execute(accountId, keyId);
    await refusedEverywhereWithin1s(key, since);
    expect(errors.filter((line) => line.includes('not told') || line.includes('refused'))).toEqual([]);
  });

  it('a key revoked by the operator CLI (user cli) answers 401 on both replicas within a second; the CLI exits 0', async () => {
    const { key, keyId } = await newKey();
    await cachedOnBoth(key);
    const err: string[] = [];
    const since = Date.now();
    const code = await runCli(
      ['keys:revoke', '--key-id', keyId],
      { NATS_URL: nats.url, DATABASE_URL: database.url, REDIS_URL: redis.url, ...asUser('cli') },
      {
        out: () => undefined,
        err: (line: string) => void err.push(line),
      },
    );
    expect({ code, err }).toEqual({ code: 0, err: [expect.stringContaining('gateways notified on credit.events.api-key.revoked.v1')] });
    await refusedEverywhereWithin1s(key, since);
  });
});

describe('x402 under the shipped users', () => {
  it('a paid score settles: gateway → payments (verify, settle) → chain, the score through scoring and identity', async () => {
    const state = world.devnet.state;
    const header = await signedX402Payment(state.payments, { key: state.cast.payer.privateKey });
    const res = await http(gateways[1]!.url, `/api/v2/score/address/${getAddress(state.cast.healthy_borrower!.address)}`, {
      headers: { 'x-payment': header },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-payment-response')).toBeTruthy();
    const ledger = await new PaymentRepository(db).list({ payer: state.cast.payer.address });
    expect(ledger).toEqual([expect.objectContaining({ status: 'settled' })]);
  });
});

describe('each app’s replies are its own', () => {
  it.each(USERS.filter((u) => u !== 'gateway'))('%s cannot subscribe to the gateway’s inboxes, nor to every inbox', async (user) => {
    const nc = await as(user);
    expect(await subscriptionRefused(nc, '_INBOX_gateway.>')).toBe(true);
    expect(await subscriptionRefused(nc, '_INBOX.>')).toBe(true);
    expect(await subscriptionRefused(nc, '>')).toBe(true);
  });

  it('a reply meant for the gateway never reaches a scoring connection that tried to read it', async () => {
    const spy = await as('scoring');
    const seen: string[] = [];
    spy.subscribe('_INBOX_gateway.>', { callback: (error, msg) => void (error ? undefined : seen.push(msg.subject)) });
    await spy.flush();
    const { key } = await newKey();
    const res = await http(gateways[0]!.url, '/api/v2/sandbox/score/address/0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', { key });
    expect(res.status).toBe(200);
    await spy.flush();
    expect(seen).toEqual([]);
  });

  it('the apps’ own inboxes are under _INBOX_<user> (the gateway’s and scoring’s requests above are answered only so)', async () => {
    const nc = gateways[0]!.app.get<NatsConnection>(NATS_CONNECTION);
    expect((nc as unknown as { options: { inboxPrefix?: string } }).options.inboxPrefix).toBe('_INBOX_gateway');
  });
});

describe('what the file refuses is refused, and the publisher sees it', () => {
  it('a gateway may not broadcast account changes: its publish rejects with PublishRefusedError and is logged', async () => {
    const nc = gateways[0]!.app.get<NatsConnection>(NATS_CONNECTION);
    const event = { account_id: 'acc_forged', is_active: true };
    await expect(publishEvent(nc, 'accountStatusChanged', event, { subjectPrefix: '', timeoutMs: 2_000 })).rejects.toBeInstanceOf(
      PublishRefusedError,
    );
    expect(errors.some((line) => line.includes(`refused a publish to ${EVENTS.accountStatusChanged.subject}`))).toBe(true);
  });

  it('no password, or a wrong one: the connection is refused', async () => {
    await expect(connect({ servers: nats.url, name: 'anonymous' })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await expect(connect({ servers: nats.url, user: 'scoring', pass: 'guess' })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it('no service can forge an event; only the CLI broadcasts them all, the gateway only a revocation', async () => {
    for (const user of USERS) {
      const nc = await as(user);
      for (const event of Object.values(EVENTS)) {
        const allowed = user === 'cli' || (user === 'gateway' && event.subject === EVENTS.apiKeyRevoked.subject);
        expect({ user, subject: event.subject, refused: await publishRefused(nc, event.subject) }).toEqual({
          user,
          subject: event.subject,
          refused: !allowed,
        });
      }
    }
  });

  /**
   * Who calls each subject in the code: the gateway the HTTP operations' and the payments
   * service's; scoring and reports the identity service's batch; the webhooks app the fresh scores
   * of watched addresses.
   */
  const CALLERS: Record<string, readonly SubjectName[]> = {
    gateway: [
      ...new Set(OPERATION_IDS.flatMap((id) => Object.values(HTTP_OPERATIONS[id].subjects))),
      ...SUBJECT_NAMES.filter((s) => SUBJECTS[s].service === 'payments'),
    ],
    scoring: ['credit.identity.attestations-many.v1'],
    reports: ['credit.identity.attestations-many.v1'],
    webhooks: ['credit.score.watch.v1'],
  };

  it.each(USERS)('%s may request the subjects its code calls and no others (the gateway: every service subject)', async (user) => {
    const nc = await as(user);
    const calls = CALLERS[user] ?? [];
    for (const subject of SUBJECT_NAMES) {
      const refused = await publishRefused(nc, subject);
      // The gateway is the API's front: it may call every service subject, also ones no route uses yet.
      const allowed = user === 'gateway' || calls.includes(subject);
      expect({ user, subject, refused }).toEqual({ user, subject, refused: !allowed });
    }
    for (const subject of calls)
      expect({ user, subject, refused: await publishRefused(nc, subject) }).toEqual({ user, subject, refused: false });
  });

  it.each(USERS)('%s may serve only its own subjects, only in its own queue group', async (user) => {
    const nc = await as(user);
    for (const subject of SUBJECT_NAMES) {
      const service = SUBJECTS[subject].service;
      expect({ user, subject, refused: await subscriptionRefused(nc, subject, service) }).toEqual({
        user,
        subject,
        refused: service !== user,
      });
      // outside the queue group (to see every request): refused even for its own subjects
      expect({ user, subject, refused: await subscriptionRefused(nc, subject) }).toEqual({ user, subject, refused: true });
    }
  });

  it.each(USERS)('%s may hear only its own health subject (every replica, no queue group); only the gateway may ask them', async (user) => {
    const nc = await as(user);
    for (const [service, subject] of Object.entries(HEALTH_SUBJECTS)) {
      expect({ user, subject, refused: await subscriptionRefused(nc, subject) }).toEqual({ user, subject, refused: service !== user });
      expect({ user, subject, askRefused: await publishRefused(nc, subject) }).toEqual({ user, subject, askRefused: user !== 'gateway' });
    }
  });
});

describe('the shipped files agree', () => {
  it('Kubernetes ships the same auth.conf as compose', () => {
    expect(read('infra/k8s/nats/auth.conf')).toBe(AUTH_CONF);
  });

  it('every user of auth.conf has its password in compose, the NATS StatefulSet and the example Secret', () => {
    expect([...USERS].sort()).toEqual(['cli', 'gateway', 'identity', 'payments', 'reports', 'sandbox', 'scoring', 'webhooks']);
    for (const user of USERS) {
      const variable = `NATS_${user.toUpperCase()}_PASSWORD`;
      expect({ user, compose: read('docker-compose.yml').includes(`${variable}: \${${variable}`) }).toEqual({ user, compose: true });
      expect({ user, k8s: read('infra/k8s/nats/statefulset.yaml').includes(`name: ${variable}`) }).toEqual({ user, k8s: true });
      expect({ user, secret: new RegExp(`^  ${user}: CHANGE_ME$`, 'm').test(read('infra/k8s/secret.example.yaml')) }).toEqual({
        user,
        secret: true,
      });
    }
  });
});
