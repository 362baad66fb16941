import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { NATS_URL, REDIS_URL, startGatewayProcess, stopAllApps, type AppProcess } from '../src/apps';
import { sleep, waitUntil } from '../src/ports';
import { startPrivateRedis, type PrivateDaemon } from '../src/private-daemons';
import { startScoringWorld, type ScoringWorld } from '../src/scoring-world';
import { startTcpProxy, type TcpProxy } from '../src/tcp-proxy';
import { timedGet } from '../src/timed-http';

/**
 * The metering's failures, with the gateway as a child process on a Redis of its own and the real
 * scoring service on a seeded devnet, its Postgres behind a TCP proxy: Redis down → 503 (never
 * free service), Redis back empty → the counters rebuilt from the ledger; Postgres blackholed →
 * cached keys still served and charged, the ledger entries waiting in Redis until it heals; the
 * gateway SIGKILLed under load → after its restart the ledger equals the counter, no charge lost,
 * none counted twice.
 */
jest.setTimeout(240_000);

let redis: PrivateDaemon;
let world: ScoringWorld;
let gateway: AppProcess;
let db: Db;
let proxy: TcpProxy;

beforeAll(async () => {
  redis = await startPrivateRedis();
  world = await startScoringWorld({ natsUrl: NATS_URL, redisUrl: REDIS_URL });
  db = createPrismaClient(world.database.url);
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(world.database.url).port || 5432) });
  const proxied = new URL(world.database.url);
  proxied.port = String(proxy.port);
  gateway = await startGatewayProcess({
    NATS_URL,
    NATS_SUBJECT_PREFIX: world.prefix,
    DATABASE_URL: proxied.toString(),
    DATABASE_CONNECT_TIMEOUT_MS: '500',
    DATABASE_STATEMENT_TIMEOUT_MS: '1000',
    REDIS_URL: redis.url,
    LEDGER_FLUSH_MS: '100',
    LEDGER_CLAIM_IDLE_MS: '1000',
    LEDGER_JOB_LOCK_MS: '2000',
  });
});

afterAll(async () => {
  await stopAllApps();
  await db?.$disconnect();
  await proxy?.close();
  await world?.close();
  await redis?.stop();
});

const score = (key: string, address = world.cast('healthy_borrower')) =>
  timedGet(`${gateway.url}/api/v2/score/address/${address}`, key, 20_000);
const usage = async (key: string) =>
  (await timedGet(`${gateway.url}/users/me/usage`, key, 5_000)).body as { used: number; period_start: string };

async function accountOf(key: string): Promise<string> {
  return ((await timedGet(`${gateway.url}/users/me`, key, 5_000)).body as { id: string }).id;
}

/** The ledger's sum for the account's current period, once it equals the counter (or the deadline passes). */
async function ledgerOnceDrained(key: string): Promise<{ counter: number; ledger: number }> {
  const account = await accountOf(key);
  const ledger = new UsageLedgerRepository(db);
  let last = { counter: -1, ledger: -2 };
  await waitUntil(
    'the ledger to equal the counter',
    async () => {
      const counter = await usage(key);
      last = { counter: counter.used, ledger: (await ledger.periodTotals(account, counter.period_start.slice(0, 7))).used };
      return last.counter === last.ledger;
    },
    30_000,
  ).catch(() => undefined);
  return last;
}

/** A dashboard sign-in as the page sends it: the CSRF token from its cookie, then the form. */
async function dashboardSignIn(): Promise<{ status: number; body: unknown }> {
  const csrf = await fetch(`${gateway.url}/dashboard/api/csrf`);
  const cookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
  const { csrf_token: token } = (await csrf.json()) as { csrf_token: string };
  const res = await fetch(`${gateway.url}/dashboard/api/signin`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
    signal: AbortSignal.timeout(5_000),
  });
  return { status: res.status, body: await res.json() };
}

it('Redis down → 503 on metered routes, the usage and a dashboard sign-in, never a free answer; Redis back empty → the counter rebuilt from the ledger', async () => {
  const key = await world.database.createKey('pro');
  for (let i = 0; i < 5; i++) expect((await score(key)).status).toBe(200);
  expect(await ledgerOnceDrained(key)).toEqual({ counter: 5, ledger: 5 });

  await redis.stop();
  // A free request may still use this replica's lease of rate-limit tokens for up to a second;
  // a charged one and the usage (the counter itself) need Redis every time.
  const during = [await score(key), await timedGet(`${gateway.url}/users/me/usage`, key, 5_000)];
  for (const r of during) {
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ detail: 'Metering is unavailable; try again shortly' });
    expect(r.ms).toBeLessThan(5_000);
  }
  // The dashboard's sign-in limit lives in the same Redis: a sign-in is refused (503), not let through unlimited.
  const signInDuring = await dashboardSignIn();
  expect(signInDuring).toEqual({ status: 503, body: { detail: 'Sign-in is unavailable; try again shortly' } });

  await redis.start(); // empty: the counters, the outbox and the queue are gone
  await waitUntil('a score again once Redis is back', async () => (await score(key)).status === 200, 30_000);
  // Back: the sign-in is checked again (no such account: 401).
  expect((await dashboardSignIn()).status).toBe(401);
  expect(await ledgerOnceDrained(key)).toEqual({ counter: 6, ledger: 6 });
});

it('Postgres blackholed → a cached key is still served and charged; the ledger entries wait in Redis and land once it heals', async () => {
  const key = await world.database.createKey('pro');
  const account = await accountOf(key);
  expect((await score(key)).status).toBe(200);
  expect(await ledgerOnceDrained(key)).toEqual({ counter: 1, ledger: 1 });

  proxy.blackhole();
  for (let i = 0; i < 4; i++) expect((await score(key)).status).toBe(200);
  expect((await usage(key)).used).toBe(5);
  await sleep(1_000);
  const period = (await usage(key)).period_start.slice(0, 7);
  expect((await new UsageLedgerRepository(db).periodTotals(account, period)).used).toBe(1);

  proxy.heal();
  expect(await ledgerOnceDrained(key)).toEqual({ counter: 5, ledger: 5 });
});

it('SIGKILL under load: after the restart the ledger equals the counter; every 200 was charged, and only requests in flight at the kill beyond them', async () => {
  const key = await world.database.createKey('enterprise');
  const addresses = world.devnet.state.population.slice(0, 4).map((p) => p.address);
  let ok = 0;
  let stop = false;
  const CONNECTIONS = 16;
  const workers = Array.from({ length: CONNECTIONS }, async (_, w) => {
    for (let i = 0; !stop; i++) {
      const r = await score(key, addresses[(w + i) % addresses.length]);
      if (r.status === 200) ok++;
      else if (r.status !== 0) throw new Error(`unexpected ${r.status}: ${JSON.stringify(r.body)}`);
      else await sleep(50);
    }
  });
  await sleep(2_000);
  gateway = await gateway.restart({ kill: true });
  stop = true;
  await Promise.all(workers);
  const { counter, ledger } = await ledgerOnceDrained(key);
  console.log(`SIGKILL under load: ${ok} answered 200, counter ${counter} CU, ledger ${ledger} CU`);
  expect(ledger).toBe(counter);
  expect(ok).toBeGreaterThan(0);
  expect(counter).toBeGreaterThanOrEqual(ok);
  expect(counter - ok).toBeLessThanOrEqual(CONNECTIONS);
});
