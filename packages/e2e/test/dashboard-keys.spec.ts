import { http } from '@credit/test-stack/test-stack';
import { dashboardWorld, waitFor } from './support/dashboard-world';

/**
 * The account dashboard's keys and usage through a real gateway (two replicas): a key shown once,
 * listed, used and revoked everywhere within a second; the month's usage.
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
});
