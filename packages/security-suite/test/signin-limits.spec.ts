import crypto from 'node:crypto';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { hashPassword } from '@credit/gateway/dashboard/password-hash';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';
import { accountWithPasswordHash } from '../src/dashboard-accounts';

/**
 * Password guessing against the dashboard's sign-in, through real gateways over HTTP on Postgres
 * and Redis. The per-email limit is a reservation taken in Redis before any password is hashed,
 * so parallel guesses cannot outrun it; the per-client limit keys on the address the trusted
 * proxy reports (TRUST_PROXY), so one client cannot lock out the others, and without a trusted
 * proxy `X-Forwarded-For` is ignored, so no client can pick a fresh address for each guess.
 */
jest.setTimeout(120_000);

const PASSWORD = 'correct horse battery staple';
const MAX_FAILURES = 5;
const MAX_PER_ADDRESS = 12;

let stack: TestStack;
/** Behind a proxy on this machine: `X-Forwarded-For` names the client. */
let proxied: RunningGateway;
/** No proxy trusted (the default): the socket's address is the client. */
let direct: RunningGateway;
/** One hop trusted: the last `X-Forwarded-For` entry is the client, whatever it wrote before it. */
let oneHop: RunningGateway;

beforeAll(async () => {
  const limits = { SIGNIN_MAX_FAILURES: String(MAX_FAILURES), SIGNIN_MAX_ATTEMPTS_PER_IP: String(MAX_PER_ADDRESS) };
  stack = await startTestStack({ env: { ...limits, TRUST_PROXY: 'loopback' } });
  proxied = stack.gateway;
  direct = await stack.startGatewayReplica({ TRUST_PROXY: '' });
  oneHop = await stack.startGatewayReplica({ TRUST_PROXY: '1' });
});

afterAll(async () => {
  await stack?.close();
});

let addressCount = 0;
/** A client address of the documentation ranges, new on every call. */
const newAddress = () => {
  addressCount += 1;
  return `198.18.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
};

/** An account with a password, stored the way the dashboard stores it. */
async function accountWithPassword(): Promise<string> {
  return (await accountWithPasswordHash(stack.db, await hashPassword(PASSWORD), 'guess')).email;
}

function signIn(client: DashboardClient, email: string, password: string, forwardedFor?: string) {
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return client.call('POST', '/signin', { body: { email, password }, headers });
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('the per-email limit is atomic', () => {
  it('50 parallel wrong passwords from 50 addresses: exactly 5 are checked (5 scrypt runs), 45 are refused before hashing', async () => {
    const email = await accountWithPassword();
    const client = await new DashboardClient(proxied.url).start();
    // The gateway runs in this process: every scrypt it runs is counted here.
    const scrypt = jest.spyOn(crypto, 'scrypt');
    let statuses: number[];
    try {
      statuses = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => (await signIn(client, email, `wrong ${i}`, newAddress())).status),
      );
      expect(scrypt).toHaveBeenCalledTimes(MAX_FAILURES);
    } finally {
      scrypt.mockRestore();
    }
    expect([count(statuses, 401), count(statuses, 429)]).toEqual([MAX_FAILURES, 50 - MAX_FAILURES]);
    // The right password is refused too for the rest of the window, from any address.
    const late = await signIn(client, email, PASSWORD, newAddress());
    expect(late).toMatchObject({ status: 429, body: { detail: { error: 'rate_limited', retry_after: expect.any(Number) } } });
    expect(Number(late.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the right password sent among 49 parallel wrong ones is never checked after the 5th failure', async () => {
    const email = await accountWithPassword();
    const client = await new DashboardClient(proxied.url).start();
    const attempts = Array.from({ length: 50 }, (_, i) => (i === 30 ? PASSWORD : `wrong ${i}`));
    const results = await Promise.all(
      attempts.map(async (password) => ({ password, status: (await signIn(client, email, password, newAddress())).status })),
    );
    const right = results.find((r) => r.password === PASSWORD)!;
    const failures = count(
      results.map((r) => r.status),
      401,
    );
    expect(failures).toBeLessThanOrEqual(MAX_FAILURES);
    // Either it took one of the 5 checks (200) or it came after they were spent (429); never more than 5 wrong checks.
    expect([200, 429]).toContain(right.status);
    if (right.status === 429) expect(failures).toBe(MAX_FAILURES);
  });

  it('a guess sent while a batch is being refused gets 429 even with the right password', async () => {
    const email = await accountWithPassword();
    const client = await new DashboardClient(proxied.url).start();
    let firstRefusal!: () => void;
    const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
    const batch = Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const { status } = await signIn(client, email, `wrong ${i}`, newAddress());
        if (status === 429) firstRefusal();
        return status;
      }),
    );
    await refused;
    expect((await signIn(client, email, PASSWORD, newAddress())).status).toBe(429);
    expect(count(await batch, 401)).toBe(MAX_FAILURES);
  });

  it('another account is not affected, and a right password gives its own check back', async () => {
    const locked = await accountWithPassword();
    const client = await new DashboardClient(proxied.url).start();
    await Promise.all(Array.from({ length: 10 }, (_, i) => signIn(client, locked, `wrong ${i}`, newAddress())));
    const other = await accountWithPassword();
    // 5 right sign-ins do not use up the other account's 5 checks: each gives its own back.
    for (let i = 0; i < 5; i++) expect((await signIn(client, other, PASSWORD, newAddress())).status).toBe(200);
    expect((await signIn(client, other, 'one typo', newAddress())).status).toBe(401);
    expect((await signIn(client, other, PASSWORD, newAddress())).status).toBe(200);
  });
});

describe('the per-client limit keys on the address the trusted proxy reports', () => {
  it('with TRUST_PROXY, a flood from one client gets 429 while another client signs in', async () => {
    const email = await accountWithPassword();
    const flooder = newAddress();
    const client = await new DashboardClient(proxied.url).start();
    const statuses: number[] = [];
    // Different emails each time: only the address's own limit can stop them.
    for (let i = 0; i < MAX_PER_ADDRESS + 5; i++) statuses.push((await signIn(client, `nobody-${i}@example.com`, 'x', flooder)).status);
    expect(statuses.slice(0, MAX_PER_ADDRESS).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(MAX_PER_ADDRESS)).toEqual([429, 429, 429, 429, 429]);
    const refused = await signIn(client, email, PASSWORD, flooder);
    expect(refused).toMatchObject({ status: 429, body: { detail: { error: 'rate_limited' } } });
    expect(JSON.stringify(refused.body)).toMatch(/from this address/);

    const bystander = await new DashboardClient(proxied.url).start();
    expect((await signIn(bystander, email, PASSWORD, newAddress())).status).toBe(200);
    // Sign-up is limited by the same count per address: the flooder is refused there too, nobody else is.
    const signUp = (c: DashboardClient, from: string) =>
      c.call('POST', '/signup', { body: { email: `${uniquePrefix('su')}@example.com` }, headers: { 'x-forwarded-for': from } });
    expect((await signUp(client, flooder)).status).toBe(429);
    expect((await signUp(bystander, newAddress())).status).toBe(202);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot give itself a fresh address per guess', async () => {
    const client = await new DashboardClient(direct.url).start();
    const statuses: number[] = [];
    for (let i = 0; i < MAX_PER_ADDRESS + 3; i++) {
      statuses.push((await signIn(client, `nobody-direct-${i}@example.com`, 'x', newAddress())).status);
    }
    expect(statuses.slice(0, MAX_PER_ADDRESS).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(MAX_PER_ADDRESS)).toEqual([429, 429, 429]);
    expect((await signIn(client, 'nobody-direct@example.com', 'x')).status).toBe(429);
  });

  it('with a hop count, what the client wrote before the proxy’s own entry does not count', async () => {
    const client = await new DashboardClient(oneHop.url).start();
    const real = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < MAX_PER_ADDRESS + 3; i++) {
      // The proxy appends the address it saw; the client forges a new one in front every time.
      statuses.push((await signIn(client, `nobody-hop-${i}@example.com`, 'x', `${newAddress()}, ${real}`)).status);
    }
    expect(statuses.slice(MAX_PER_ADDRESS)).toEqual([429, 429, 429]);
    expect((await signIn(client, 'nobody-hop@example.com', 'x', `${real}, ${newAddress()}`)).status).toBe(401);
  });
});
