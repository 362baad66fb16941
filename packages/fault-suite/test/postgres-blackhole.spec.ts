import { randomBytes } from 'node:crypto';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { NATS_URL, startGatewayProcess, startServiceProcess, stopAllApps } from '../src/apps';
import { VITALIK } from '../src/fuzz-values';
import { createKeyedDatabase, type KeyedDatabase } from '../src/keyed-database';
import { waitUntil } from '../src/ports';
import { startTcpProxy, type TcpProxy } from '../src/tcp-proxy';
import { timedGet } from '../src/timed-http';

/**
 * Postgres blackholed under the gateway (a TCP proxy that accepts and then answers nothing): a key
 * the gateway has not cached gets a fast 503 {detail}, cached keys keep working, and once the
 * network heals uncached keys work again, with no restart.
 */
jest.setTimeout(120_000);

const CONNECT_TIMEOUT_MS = 500;
const STATEMENT_TIMEOUT_MS = 1_000;
/** Connect + statement + the client's 1 s grace (packages/db prisma-client), plus a margin. */
const KEY_LOOKUP_DEADLINE_MS = CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1_000 + 2_000;
let proxy: TcpProxy;
let database: KeyedDatabase;
let gatewayUrl: string;

beforeAll(async () => {
  database = await createKeyedDatabase();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) });
  const proxied = new URL(database.url);
  proxied.port = String(proxy.port);
  const prefix = uniquePrefix('pgdown');
  await startServiceProcess('sandbox', { NATS_URL, NATS_SUBJECT_PREFIX: prefix });
  const gateway = await startGatewayProcess({
    NATS_URL,
    NATS_SUBJECT_PREFIX: prefix,
    DATABASE_URL: proxied.toString(),
    DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  });
  gatewayUrl = gateway.url;
});

afterAll(async () => {
  await stopAllApps();
  await proxy?.close();
  await database?.drop();
});

it('an uncached key → fast 503 {detail} while Postgres is blackholed; cached keys work; after healing uncached keys work again', async () => {
  const [cached, uncached, later] = [await database.createKey(), await database.createKey(), await database.createKey()];
  const score = (key: string) => timedGet(`${gatewayUrl}/api/v2/sandbox/score/address/${VITALIK}`, key, KEY_LOOKUP_DEADLINE_MS + 10_000);
  expect((await score(cached)).status).toBe(200);

  proxy.blackhole();
  const refused = await score(uncached);
  console.log(`Postgres blackholed: uncached key → ${refused.status} in ${refused.ms} ms`);
  expect(refused.status).toBe(503);
  expect(Object.keys(refused.body as object)).toEqual(['detail']);
  expect(refused.ms).toBeLessThanOrEqual(KEY_LOOKUP_DEADLINE_MS);
  expect((await score(cached)).status).toBe(200);
  // The dashboard reads its sessions from Postgres: a fast 503 too, never a 500 or a hang.
  const dashboard = await dashboardKeys();
  console.log(`Postgres blackholed: a dashboard session lookup → ${dashboard.status} in ${dashboard.ms} ms`);
  expect(dashboard.status).toBe(503);
  expect(Object.keys(dashboard.body as object)).toEqual(['detail']);
  expect(dashboard.ms).toBeLessThanOrEqual(KEY_LOOKUP_DEADLINE_MS);

  proxy.heal();
  const healed = Date.now();
  await waitUntil('the uncached key accepted after healing', async () => (await score(uncached)).status === 200, 30_000, 250);
  console.log(`Postgres healed: the uncached key accepted after ${Date.now() - healed} ms`);
  expect((await score(later)).status).toBe(200);
  expect((await dashboardKeys()).status).toBe(401);
});

/** The dashboard's key list with a well-formed session cookie no session has: Postgres decides. */
async function dashboardKeys(): Promise<{ status: number; body: unknown; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${gatewayUrl}/dashboard/api/keys`, {
    headers: { cookie: `credit_session=${randomBytes(32).toString('base64url')}` },
    signal: AbortSignal.timeout(KEY_LOOKUP_DEADLINE_MS + 10_000),
  });
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
}
