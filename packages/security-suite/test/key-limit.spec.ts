import { ApiKeyRepository } from '@credit/db/api-key-repository';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { hashPassword } from '@credit/gateway/dashboard/password-hash';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';
import { accountWithPasswordHash } from '../src/dashboard-accounts';

/**
 * An account holds at most 50 active keys. Parallel creations through two gateway replicas on one
 * Postgres must not pass the limit: each creation counts and inserts in one transaction under the
 * account's row lock, so 60 at once end with exactly 50 keys.
 */
jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';
const LIMIT = 50;

let stack: TestStack;
let replica: RunningGateway;

beforeAll(async () => {
  // 60 creations queue for one account's row lock through two pools of 10 connections: on a busy
  // machine the last wait longer than a gateway waits by default for a free connection (2 s) or a
  // statement (5 s, the lock wait included) and answer 503 (fast, and right), which is not what
  // this test is about: the limit's exactness under concurrency.
  stack = await startTestStack({
    env: { SIGNIN_MAX_ATTEMPTS_PER_IP: '1000', DATABASE_CONNECT_TIMEOUT_MS: '30000', DATABASE_STATEMENT_TIMEOUT_MS: '30000' },
  });
  replica = await stack.startGatewayReplica();
});

afterAll(async () => {
  await stack?.close();
});

/** A signed-in dashboard client on each replica, both for one new account. */
async function signedInTwice(): Promise<{ clients: DashboardClient[]; accountId: string }> {
  const { email, accountId } = await accountWithPasswordHash(stack.db, await hashPassword(PASSWORD), 'keys');
  const clients = await Promise.all(
    [stack.url, replica.url].map(async (url) => {
      const client = await new DashboardClient(url).start();
      expect((await client.signIn(email, PASSWORD)).status).toBe(200);
      return client;
    }),
  );
  return { clients, accountId };
}

const activeKeys = async (accountId: string) =>
  (await new ApiKeyRepository(stack.db).listByAccount(accountId)).filter((k) => k.status === 'active').length;

describe('the 50-key limit under concurrency', () => {
  it('60 parallel creations on two replicas end with exactly 50 active keys; the other 10 are refused', async () => {
    const { clients, accountId } = await signedInTwice();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => clients[i % 2]!.call('POST', '/keys', { body: { name: `parallel ${i}` } })),
    );
    const statuses = results.map((r) => r.status);
    expect([statuses.filter((s) => s === 201).length, statuses.filter((s) => s === 403).length]).toEqual([LIMIT, 60 - LIMIT]);
    for (const refused of results.filter((r) => r.status === 403)) {
      expect(refused.body).toEqual({ detail: 'An account holds at most 50 active keys: revoke one first' });
    }
    expect(await activeKeys(accountId)).toBe(LIMIT);
    // Every key shown was stored, once.
    const shown = results.filter((r) => r.status === 201).map((r) => r.body.key_id as string);
    expect(new Set(shown).size).toBe(LIMIT);
  });

  it('at the limit, revoking one frees exactly one place, however many race for it', async () => {
    const { clients, accountId } = await signedInTwice();
    const keys = new ApiKeyRepository(stack.db);
    for (let i = 0; i < LIMIT; i++) await keys.create({ accountId, name: `k${i}` });
    const [first] = await keys.listByAccount(accountId);
    expect((await clients[0]!.call('POST', `/keys/${first!.key_id}/revoke`)).status).toBe(200);
    const statuses = (
      await Promise.all(Array.from({ length: 10 }, (_, i) => clients[i % 2]!.call('POST', '/keys', { body: { name: `race ${i}` } })))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(await activeKeys(accountId)).toBe(LIMIT);
  });
});
