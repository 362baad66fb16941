import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { PLANS, PLAN_NAMES, type PlanName } from '@credit/contracts/pricing';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { http } from '@credit/test-stack/test-stack';
import { storeCharges } from './support/dashboard-page';
import { dashboardWorld, newEmail, waitFor } from './support/dashboard-world';

/**
 * The account dashboard's keys and usage through a real gateway (two replicas): a key shown once,
 * listed, used and revoked everywhere within a second; the month's usage and the plans.
 */

jest.setTimeout(60_000);

const world = dashboardWorld();
const { signedIn } = world;

describe('keys', () => {
  it('shows a new key once, lists name, created, last used and status, and a revocation is 401 on every replica within a second', async () => {
    const { client } = await signedIn();
    const created = await client.call('POST', '/keys', { body: { name: '  ci runner ' } });
    expect(created).toMatchObject({
      status: 201,
      body: { key_id: expect.stringMatching(/^key_/), name: 'ci runner', status: 'active', last_used_at: null, revoked_at: null },
    });
    const { key, key_id: keyId } = created.body as { key: string; key_id: string };
    expect(key).toMatch(/^csk_[0-9A-Za-z]{40}$/);
    expect(created.body.start).toBe(key.slice(0, 10));

    const listed = await client.call('GET', '/keys');
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body.keys).toEqual([{ ...created.body, key: undefined }].map(({ key: _k, ...rest }) => rest));

    // Both replicas serve the key (and cache it).
    for (const base of [world.stack.url, world.replica.url]) expect((await http(base, '/users/me', { key })).status).toBe(200);
    const used = await waitFor(
      async () => (await client.call('GET', '/keys')).body.keys[0].last_used_at,
      (v) => v !== null,
    );
    expect(Date.parse(used)).toBeGreaterThan(Date.parse(created.body.created_at) - 1);

    expect(await client.call('POST', `/keys/${keyId}/revoke`)).toMatchObject({ status: 200, body: { key_id: keyId, status: 'revoked' } });
    const deadline = Date.now() + 1_000;
    for (const base of [world.replica.url, world.stack.url]) {
      let status = 0;
      while (status !== 401 && Date.now() < deadline) status = (await http(base, '/users/me', { key })).status;
      expect({ base, status }).toEqual({ base, status: 401 });
    }
    expect((await client.call('GET', '/keys')).body.keys[0]).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    // Revoking again changes nothing; it stays revoked.
    expect(await client.call('POST', `/keys/${keyId}/revoke`)).toMatchObject({ status: 200, body: { status: 'revoked' } });
  });

  it('refuses an empty or overlong name with 400 {error}', async () => {
    const { client } = await signedIn();
    expect(await client.call('POST', '/keys', { body: { name: '   ' } })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^name:/) },
    });
    expect(await client.call('POST', '/keys', { body: { name: 'x'.repeat(101) } })).toMatchObject({ status: 400 });
    expect(await client.call('POST', '/keys', { body: {} })).toMatchObject({ status: 400 });
  });
});

describe('usage', () => {
  it("gives the month's plan, limit, used, remaining and period, and CU per day and operation from the ledger", async () => {
    const { client } = await signedIn();
    const usage = await client.call('GET', '/usage');
    expect(usage).toMatchObject({
      status: 200,
      body: { plan: 'free', monthly_limit: 1000, used: 0, remaining: 1000, by_operation: {}, daily: [] },
    });
    expect(Date.parse(usage.body.period_end)).toBeGreaterThan(Date.now());
  });

  it("gives every operation's price as the contracts define it, the plan's rate limit as RateLimit-Policy states it, and CU and requests by status per key", async () => {
    const { client, email } = await signedIn();
    const { id: accountId } = (await new AccountRepository(world.stack.db).findByEmail(email))!;
    const a = (await client.call('POST', '/keys', { body: { name: 'a' } })).body;
    const b = (await client.call('POST', '/keys', { body: { name: 'b' } })).body;
    await storeCharges(world.stack.db, accountId, [
      { keyId: a.key_id, operation: 'scoreAddress', cu: 3 },
      { keyId: b.key_id, operation: 'scoreBatch', cu: 5 },
    ]);
    // Key a's production calls, as answered here (no scoring service runs): refused, then failed.
    const address = `0x${'1'.repeat(40)}`;
    const malformed = { method: 'POST', key: a.key, headers: { 'content-type': 'application/json' }, rawBody: '{' };
    expect((await http(world.stack.url, `/api/v2/score/address/${address}`, malformed)).status).toBe(400);
    expect((await http(world.stack.url, `/api/v2/score/address/${address}`, { key: a.key })).status).toBe(503);
    // The charge of the 503 and its refund reach the ledger as two outbox entries, possibly in two
    // flushes, and the counts by status in a third: wait until all have landed (a refund never
    // written leaves key a at 4 CU, and the assertions below fail).
    type KeyUsage = { key_id: string; cu: number; requests: { '5xx': number } };
    const usage = await waitFor(
      () => client.call('GET', '/usage'),
      (answer) => answer.body.by_key.some((key: KeyUsage) => key.key_id === a.key_id && key.requests['5xx'] > 0 && key.cu === 3),
    );
    expect(usage.body).toMatchObject({ used: 8, by_operation: { scoreAddress: 3, scoreBatch: 5 } });
    expect(usage.body.by_key).toEqual([
      { key_id: b.key_id, name: 'b', start: b.start, cu: 5, requests: { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0 } },
      { key_id: a.key_id, name: 'a', start: a.start, cu: 3, requests: { '2xx': 0, '4xx': 1, '429': 0, '5xx': 1 } },
    ]);
    expect(usage.body.prices).toEqual(
      OPERATION_IDS.map((id) => ({
        operation: id,
        summary: HTTP_OPERATIONS[id].summary,
        kind: HTTP_OPERATIONS[id].price.kind,
        cu: HTTP_OPERATIONS[id].price.cu,
      })),
    );
    const call = await http(world.stack.url, '/api/v2/sandbox/score/address/0x0000000000000000000000000000000000000001', { key: a.key });
    const { requests, window_seconds } = usage.body.rate_limit;
    expect(call.headers.get('ratelimit-policy')).toBe(`"api";q=${requests};w=${window_seconds}`);
  });

  it("lists every plan with the allowance of PLANS and the rate limit each plan's RateLimit-Policy header states", async () => {
    const { client } = await signedIn();
    const { plan, plans } = (await client.call('GET', '/usage')).body as {
      plan: PlanName;
      plans: { name: PlanName; monthly_cu: number | null; rate_limit: { requests: number; window_seconds: number } }[];
    };
    expect(plan).toBe('free');
    expect(plans.map((p) => [p.name, p.monthly_cu])).toEqual(PLAN_NAMES.map((name) => [name, PLANS[name].monthlyCu]));
    // Each plan's rate limit is the one the metering applies: a key of an account on that plan is told it.
    for (const { name, rate_limit: rate } of plans) {
      const { account } = await new AccountRepository(world.stack.db).findOrCreateByEmail(newEmail(), name);
      const { key } = await new ApiKeyRepository(world.stack.db).create({ accountId: account.id, name });
      const call = await http(world.stack.url, '/api/v2/sandbox/score/address/0x0000000000000000000000000000000000000001', { key });
      expect([name, call.headers.get('ratelimit-policy')]).toEqual([name, `"api";q=${rate.requests};w=${rate.window_seconds}`]);
    }
  });
});
