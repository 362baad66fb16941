import { AccountRepository } from '@credit/db/account-repository';
import type { SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { http, type TestStack } from '@credit/test-stack/test-stack';
import { startDashboardWebhookStack, type DashboardWebhookStack } from './support/dashboard-webhook-stack';
import { eventually, type WebhookReceiver } from '@credit/testing/webhook-receiver';

/**
 * The dashboard's webhooks routes (issue 38) through a real gateway on Postgres, Redis and NATS,
 * with apps/webhooks' delivery worker and a local receiver: the API's use cases behind a session
 * and the CSRF check, charged and limited as from the API (to the account, without a key). The
 * scoring service's part in a creation (the baselines) is answered on the stack's prefix.
 */
jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery staple';
const A = '0x52908400098527886E0F7030069857D2E4169EE7';
const B = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

let world: DashboardWebhookStack;
let smtp: SmtpCapture;
let stack: TestStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  world = await startDashboardWebhookStack();
  ({ smtp, stack, receiver } = world);
}, 120_000);

afterAll(async () => {
  await world?.close();
});

/** A new verified account signed in: its client (cookies and CSRF token) and email. */
async function signedIn(): Promise<{ client: DashboardClient; email: string }> {
  const email = `${uniquePrefix('dashwh')}@example.com`.toLowerCase();
  const client = await new DashboardClient(stack.url).start();
  expect((await client.createAccount(smtp, email, PASSWORD)).status).toBe(200);
  expect((await client.signIn(email, PASSWORD)).status).toBe(200);
  return { client, email };
}

describe('/dashboard/api/webhooks', () => {
  it('creates a webhook (secret once, 1 CU an address), lists it with its deliveries, pings it (1 CU), deletes it', async () => {
    const { client, email } = await signedIn();
    expect(await client.call('GET', '/webhooks')).toMatchObject({ status: 200, body: { webhooks: [] } });

    const created = await client.call('POST', '/webhooks', {
      body: { url: receiver.url, addresses: [A.toLowerCase(), A, B], min_change: 25 },
    });
    expect(created).toMatchObject({
      status: 201,
      body: {
        id: expect.stringMatching(/^wh_[0-9A-Za-z]{20}$/),
        url: receiver.url,
        addresses: [A, B],
        min_change: 25,
        secret: expect.stringMatching(/^whsec_/),
        created_at: expect.any(String),
      },
    });
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('x-cu-cost')).toBe('2');
    const { secret, ...item } = created.body as { id: string; secret: string };

    const listed = await client.call('GET', '/webhooks');
    expect(listed).toMatchObject({ status: 200, body: { webhooks: [{ ...item, deliveries: [] }] } });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const ping = await client.call('POST', `/webhooks/${item.id}/test`);
    expect(ping).toMatchObject({ status: 202, body: { event_id: expect.stringMatching(/^evt_/), sequence: 1 } });
    expect(ping.headers.get('x-cu-cost')).toBe('1');
    // The worker delivers it; the list shows the attempt: event, status, duration, time.
    const [delivery] = await eventually('the ping in the list', async () => {
      const { body } = await client.call('GET', '/webhooks');
      return body.webhooks[0].deliveries.length > 0 ? body.webhooks[0].deliveries : undefined;
    });
    expect(delivery).toEqual({
      event_id: ping.body.event_id,
      event_type: 'ping',
      sequence: 1,
      attempt: 1,
      status_code: 204,
      error: null,
      duration_ms: expect.any(Number),
      attempted_at: expect.any(String),
    });
    const received = receiver.received.find((post) => post.headers['webhook-id'] === ping.body.event_id);
    expect(JSON.parse(received!.body)).toMatchObject({ type: 'ping', data: { webhook_id: item.id } });

    // Charged to the account, without a key: the month's counter and its operations, no key's usage.
    const usage = await client.call('GET', '/usage');
    expect(usage.body).toMatchObject({ used: 3, by_operation: { webhooksCreate: 2, webhooksTest: 1 }, by_key: [] });
    const { id: accountId } = (await new AccountRepository(stack.db).findByEmail(email))!;
    const charges = await eventually('the charges in the ledger', async () => {
      const rows = await stack.db.usageEntry.findMany({ where: { accountId, kind: 'charge' }, orderBy: { operation: 'asc' } });
      return rows.length === 2 ? rows : undefined;
    });
    expect(charges.map(({ operation, cu, keyId }) => ({ operation, cu, keyId }))).toEqual([
      { operation: 'webhooksCreate', cu: 2, keyId: null },
      { operation: 'webhooksTest', cu: 1, keyId: null },
    ]);

    expect(await client.call('DELETE', `/webhooks/${item.id}`)).toMatchObject({ status: 204 });
    expect((await client.call('GET', '/webhooks')).body).toEqual({ webhooks: [] });
    expect(await client.call('DELETE', `/webhooks/${item.id}`)).toMatchObject({ status: 404 });
    expect(await client.call('POST', `/webhooks/${item.id}/test`)).toMatchObject({ status: 404 });
  });

  it('serves the same webhooks as the API with a key of the account', async () => {
    const { client } = await signedIn();
    const { key } = (await client.call('POST', '/keys', { body: { name: 'api' } })).body as { key: string };
    const fromApi = await http(stack.url, '/api/v2/webhooks', {
      method: 'POST',
      key,
      body: { url: receiver.url, addresses: [A], min_change: 5 },
    });
    expect(fromApi.status).toBe(201);
    const fromDashboard = await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [B], min_change: 5 } });
    expect(fromDashboard.status).toBe(201);
    const ids = (await client.call('GET', '/webhooks')).body.webhooks.map((w: { id: string }) => w.id);
    expect(ids).toEqual([fromApi.body.id, fromDashboard.body.id]);
    const apiIds = (await http(stack.url, '/api/v2/webhooks', { key })).body.webhooks.map((w: { id: string }) => w.id);
    expect(apiIds).toEqual(ids);
  });

  it('refuses a change without the session’s CSRF token, or from another origin, with 403 csrf_rejected: nothing done', async () => {
    const { client } = await signedIn();
    const body = { url: receiver.url, addresses: [A], min_change: 10 };
    for (const csrf of [false, 'x'.repeat(43)] as const) {
      expect(await client.call('POST', '/webhooks', { body, csrf })).toMatchObject({
        status: 403,
        body: { detail: expect.stringMatching(/CSRF/) },
      });
    }
    const crossSite = await client.call('POST', '/webhooks', { body, headers: { origin: 'https://evil.example' } });
    expect(crossSite).toMatchObject({ status: 403, body: { detail: 'Cross-origin request refused' } });
    expect((await client.call('GET', '/webhooks')).body).toEqual({ webhooks: [] });

    const { id } = (await client.call('POST', '/webhooks', { body })).body as { id: string };
    expect(await client.call('POST', `/webhooks/${id}/test`, { csrf: false })).toMatchObject({ status: 403 });
    expect(await client.call('DELETE', `/webhooks/${id}`, { csrf: false })).toMatchObject({ status: 403 });
    expect((await client.call('GET', '/webhooks')).body.webhooks).toEqual([expect.objectContaining({ id, deliveries: [] })]);
  });

  it('needs a session: 401 without one, and an API key does not open it', async () => {
    const { client } = await signedIn();
    const { key } = (await client.call('POST', '/keys', { body: { name: 'not for the dashboard' } })).body as { key: string };
    expect(await http(stack.url, '/dashboard/api/webhooks')).toMatchObject({
      status: 401,
      body: { detail: expect.stringMatching(/Not signed in/) },
    });
    expect((await http(stack.url, '/dashboard/api/webhooks', { key })).status).toBe(401);
    const anonymous = await new DashboardClient(stack.url).start();
    expect((await anonymous.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [A], min_change: 10 } })).status).toBe(401);
  });

  it("answers 404 for another account's webhook, and lists only the account's own", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const { id } = (await owner.client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [A], min_change: 10 } })).body as {
      id: string;
    };
    for (const [method, path] of [
      ['POST', `/webhooks/${id}/test`],
      ['DELETE', `/webhooks/${id}`],
    ] as const) {
      expect(await other.client.call(method, path)).toMatchObject({ status: 404, body: { detail: `No webhook ${id} in this account` } });
    }
    expect((await other.client.call('GET', '/webhooks')).body).toEqual({ webhooks: [] });
    expect((await owner.client.call('GET', '/webhooks')).body.webhooks.map((w: { id: string }) => w.id)).toEqual([id]);
    expect(await owner.client.call('DELETE', '/webhooks/wh_nope')).toMatchObject({ status: 404 });
  });

  it('enforces the plan’s limits as the API does: addresses per webhook, webhooks per account, nothing charged when refused', async () => {
    const { client } = await signedIn();
    const eleven = Array.from({ length: 11 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const tooMany = await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: eleven, min_change: 10 } });
    expect(tooMany).toMatchObject({ status: 403, body: { detail: 'The free plan watches at most 10 addresses per webhook' } });
    for (let i = 0; i < 2; i++) {
      expect((await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [A], min_change: 10 } })).status).toBe(201);
    }
    const third = await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [A], min_change: 10 } });
    expect(third).toMatchObject({ status: 403, body: { detail: 'The free plan holds at most 2 webhooks: delete one first' } });
    expect(third.headers.get('x-cu-cost')).toBe('0');
    expect((await client.call('GET', '/usage')).body).toMatchObject({ used: 2, by_operation: { webhooksCreate: 2 } });
  });

  it('refuses a creation or a ping beyond the monthly allowance with 429 credit_limit_exceeded, and a bad body with 400', async () => {
    const { client, email } = await signedIn();
    await new AccountRepository(stack.db).setPlan(email, 'enterprise', 1);
    const over = await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [A, B], min_change: 10 } });
    expect(over).toMatchObject({ status: 429, body: { detail: { error: 'credit_limit_exceeded', monthly_limit: 1, used: 0 } } });
    expect((await client.call('GET', '/webhooks')).body).toEqual({ webhooks: [] });
    const { id } = (await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: [A], min_change: 10 } })).body as {
      id: string;
    };
    expect(await client.call('POST', `/webhooks/${id}/test`)).toMatchObject({
      status: 429,
      body: { detail: { error: 'credit_limit_exceeded' } },
    });

    const names = await client.call('POST', '/webhooks', { body: { url: receiver.url, addresses: ['vitalik.eth'], min_change: 0 } });
    expect(names).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^addresses\.0: .*names are not accepted.*; min_change: /) },
    });
    const ftp = await client.call('POST', '/webhooks', { body: { url: 'ftp://127.0.0.1/x', addresses: [A], min_change: 10 } });
    expect(ftp).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^url: must be http or https/) } });
  });
});
