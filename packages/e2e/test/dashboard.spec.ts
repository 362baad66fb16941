import { randomBytes } from 'node:crypto';
import { AccountRepository } from '@credit/db/account-repository';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient, resetToken, verificationToken } from '@credit/test-stack/dashboard-client';
import { http, startTestStack, type TestStack } from '@credit/test-stack/test-stack';

/**
 * The account dashboard's JSON endpoints through a real gateway (two replicas sharing Postgres,
 * Redis and NATS), with the verification mails going to a local SMTP server: sign-up and email
 * verification, claiming an account the CLI made, sign-in and its rate limit, sessions and
 * sign-out, CSRF, keys shown once and revoked everywhere, usage; and the security cases.
 */
jest.setTimeout(60_000);

let smtp: SmtpCapture;
let stack: TestStack;
let replica: RunningGateway;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  stack = await startTestStack({
    // Cases here ask twice for one email's mail within a minute (the sign-up, then another's sign-up
    // of it): the interval that keeps the second from mailing has its own case in the security suite.
    env: { SMTP_URL: smtp.url, SIGNIN_MAX_ATTEMPTS_PER_IP: '1000', SIGNIN_MAX_FAILURES: '5', ACCOUNT_MAIL_INTERVAL_SECONDS: '0' },
  });
  replica = await stack.startGatewayReplica();
});

afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

const PASSWORD = 'correct horse battery staple';
const newEmail = () => `${uniquePrefix('dash')}@example.com`.toLowerCase();

/** Signs up, chooses the password on the mailed link's page, signs in: a client with a session. */
async function signedIn(email = newEmail(), password = PASSWORD): Promise<{ client: DashboardClient; email: string }> {
  const client = await new DashboardClient(stack.url).start();
  expect((await client.createAccount(smtp, email, password)).status).toBe(200);
  expect((await client.signIn(email, password)).status).toBe(200);
  return { client, email };
}

describe('sign-up, email verification, sign-in', () => {
  it('mails a link; the password chosen on its page creates a verified free account; sign-in opens a session', async () => {
    const email = newEmail();
    const client = await new DashboardClient(stack.url).start();
    const since = smtp.messages.length;
    const signUp = await client.signUp(email.toUpperCase());
    expect(signUp).toMatchObject({ status: 202, body: { status: 'verification_sent' } });
    expect(signUp.headers.get('cache-control')).toBe('no-store');

    const mail = await smtp.waitFor(email, { since });
    expect(mail.subject).toMatch(/finish signing up/i);
    expect(mail.text).toContain(`${stack.url.replace('127.0.0.1', '127.0.0.1')}/dashboard/verify?token=`);
    // Nothing exists before the link is followed: sign-in fails.
    expect((await client.signIn(email, PASSWORD)).status).toBe(401);
    expect(await new AccountRepository(stack.db).findByEmail(email)).toBeNull();

    const token = verificationToken(mail.text);
    // Opening the link's page changes nothing (a mail scanner does that): the link still works after.
    expect((await fetch(`${stack.url}/dashboard/verify?token=${token}`)).status).toBe(200);
    expect(await new AccountRepository(stack.db).findByEmail(email)).toBeNull();
    expect(await client.verify(token, PASSWORD)).toMatchObject({ status: 200, body: { email, is_verified: true, keys_before: 0 } });
    // A link works once.
    expect(await client.verify(token, 'another password entirely')).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/invalid, used or expired/) },
    });

    const signIn = await client.signIn(email, PASSWORD);
    expect(signIn).toMatchObject({
      status: 200,
      body: { account: { email, plan: 'free', is_verified: true }, csrf_token: expect.any(String) },
    });
    const cookies = signIn.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('credit_session='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).toMatch(/Path=\/dashboard/);
    // The password is stored as a scrypt hash, never as given.
    const stored = await stack.db.account.findUnique({ where: { email } });
    expect(stored?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(stored?.passwordHash).not.toContain(PASSWORD);

    // The session works on the other replica too (it lives in Postgres).
    const other = new DashboardClient(replica.url);
    for (const [k, v] of client.cookies) other.cookies.set(k, v);
    expect(await other.call('GET', '/session')).toMatchObject({ status: 200, body: { account: { email } } });
  });

  it("claims an account the CLI made: the password is chosen on the link's page, the mail and the answer count its keys", async () => {
    const { key, email } = await stack.createKey({ email: newEmail() });
    expect((await http(stack.url, '/users/me', { key })).body).toMatchObject({ email, is_verified: false });

    const client = await new DashboardClient(stack.url).start();
    const since = smtp.messages.length;
    expect((await client.signUp(email)).status).toBe(202);
    expect((await client.signIn(email, PASSWORD)).status).toBe(401);
    const mail = await smtp.waitFor(email, { since });
    expect(mail.subject).toMatch(/claim your/i);
    expect(mail.text).toMatch(/already has 1 active API key/);
    expect(await client.verify(verificationToken(mail.text), PASSWORD)).toMatchObject({
      status: 200,
      body: { email, is_verified: true, keys_before: 1 },
    });
    expect((await client.signIn(email, PASSWORD)).status).toBe(200);
    // The CLI's key is one of the account's keys; the account is verified for the API too (a fresh gateway reads it).
    const keys = await client.call('GET', '/keys');
    expect(keys.body.keys).toHaveLength(1);
    const fresh = await stack.startGatewayReplica();
    expect((await http(fresh.url, '/users/me', { key })).body).toMatchObject({ email, is_verified: true });
  });

  it('a sign-up for an email that has a password answers alike, mails a note, and changes nothing', async () => {
    const { email } = await signedIn();
    const intruder = await new DashboardClient(stack.url).start();
    const since = smtp.messages.length;
    expect(await intruder.signUp(email)).toMatchObject({ status: 202, body: { status: 'verification_sent' } });
    const mail = await smtp.waitFor(email, { since });
    expect(mail.text).toMatch(/already has an account/);
    expect(mail.text).not.toMatch(/verify\?token=/);
    expect((await intruder.signIn(email, 'another password entirely')).status).toBe(401);
    expect((await intruder.signIn(email, PASSWORD)).status).toBe(200);
  });

  it('refuses a bad email, a short password, a password at sign-up and unknown fields with 400 {error}', async () => {
    const client = await new DashboardClient(stack.url).start();
    expect(await client.signUp('not-an-email')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^email:/) } });
    const since = smtp.messages.length;
    const email = newEmail();
    await client.signUp(email);
    const token = verificationToken((await smtp.waitFor(email, { since })).text);
    expect(await client.verify(token, 'short')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^password:/) } });
    expect((await client.verify(token, PASSWORD)).status).toBe(200);
    expect(await client.call('POST', '/signup', { body: { email: newEmail(), password: PASSWORD } })).toMatchObject({
      status: 400,
      body: { error: expect.any(String) },
    });
    expect(await client.call('POST', '/signup', { body: { email: newEmail(), plan: 'enterprise' } })).toMatchObject({
      status: 400,
      body: { error: expect.any(String) },
    });
    expect(await client.call('POST', '/signin', { body: [] })).toMatchObject({ status: 400, body: { error: expect.any(String) } });
    expect(await client.verify('nope', PASSWORD)).toMatchObject({ status: 400, body: { detail: expect.any(String) } });
  });
});

describe('the second day', () => {
  it('a session and its key list outlive the gateway that made them: a restarted gateway answers the same', async () => {
    const first = await stack.startGatewayReplica();
    const client = new DashboardClient(first.url);
    await client.start();
    const email = newEmail();
    await client.createAccount(smtp, email, PASSWORD);
    expect((await client.signIn(email, PASSWORD)).status).toBe(200);
    await client.call('POST', '/keys', { body: { name: 'survives' } });
    const before = await client.call('GET', '/keys');
    await first.close();

    const restarted = await stack.startGatewayReplica();
    const again = new DashboardClient(restarted.url);
    for (const [k, v] of client.cookies) again.cookies.set(k, v);
    again.csrfToken = client.csrfToken;
    expect(await again.call('GET', '/keys')).toMatchObject({ status: 200, body: before.body });
    expect((await again.call('GET', '/session')).body).toMatchObject({ account: { email }, csrf_token: client.csrfToken });
  });
});

describe('password reset', () => {
  it('mails a link; following it sets the new password once and ends every session of the account', async () => {
    const { client, email } = await signedIn();
    const anonymous = await new DashboardClient(stack.url).start();
    const since = smtp.messages.length;
    expect(await anonymous.call('POST', '/password/forgot', { body: { email: email.toUpperCase() } })).toMatchObject({
      status: 202,
      body: { status: 'reset_sent' },
    });
    const mail = await smtp.waitFor(email, { since });
    const token = resetToken(mail.text);
    // A short password is refused without using the link up.
    expect(await anonymous.call('POST', '/password/reset', { body: { token, password: 'short' } })).toMatchObject({ status: 400 });
    const newPassword = 'a brand new passphrase';
    expect(await anonymous.call('POST', '/password/reset', { body: { token, password: newPassword } })).toMatchObject({
      status: 200,
      body: { email, keys_before: 0 },
    });
    expect((await anonymous.call('POST', '/password/reset', { body: { token, password: 'yet another passphrase' } })).status).toBe(400);
    // The session signed in before the reset is over; the old password no longer works, the new one does.
    expect((await client.call('GET', '/keys')).status).toBe(401);
    expect((await anonymous.signIn(email, PASSWORD)).status).toBe(401);
    expect((await anonymous.signIn(email, newPassword)).status).toBe(200);
  });

  it('answers alike for an unknown email (and mails nothing), and mails a CLI account the link to choose its first password', async () => {
    const anonymous = await new DashboardClient(stack.url).start();
    const unknown = newEmail();
    const since = smtp.messages.length;
    expect((await anonymous.call('POST', '/password/forgot', { body: { email: unknown } })).body).toMatchObject({ status: 'reset_sent' });
    const { email } = await stack.createKey({ email: newEmail() });
    expect((await anonymous.call('POST', '/password/forgot', { body: { email } })).status).toBe(202);
    const mail = await smtp.waitFor(email, { since });
    expect(mail.text).toMatch(/choose your password/);
    expect(mail.text).toMatch(/\/dashboard\/verify\?token=/);
    expect(mail.text).not.toMatch(/reset\?token=/);
    expect(smtp.messages.slice(since).some((m) => m.to.includes(unknown))).toBe(false);
  });
});

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
    for (const base of [stack.url, replica.url]) expect((await http(base, '/users/me', { key })).status).toBe(200);
    const used = await waitFor(
      async () => (await client.call('GET', '/keys')).body.keys[0].last_used_at,
      (v) => v !== null,
    );
    expect(Date.parse(used)).toBeGreaterThan(Date.parse(created.body.created_at) - 1);

    expect(await client.call('POST', `/keys/${keyId}/revoke`)).toMatchObject({ status: 200, body: { key_id: keyId, status: 'revoked' } });
    const deadline = Date.now() + 1_000;
    for (const base of [replica.url, stack.url]) {
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

describe('security', () => {
  it('no session: 401 on every signed-in endpoint; an API key does not open them', async () => {
    const { key } = await stack.createKey();
    const anonymous = await new DashboardClient(stack.url).start();
    for (const [method, path] of [
      ['GET', '/session'],
      ['GET', '/keys'],
      ['GET', '/usage'],
      ['POST', '/keys'],
      ['POST', '/keys/key_x/revoke'],
      ['POST', '/signout'],
    ] as const) {
      const res = await anonymous.call(method, path, {
        body: method === 'POST' ? { name: 'x' } : undefined,
        headers: { authorization: `Bearer ${key}` },
      });
      expect({ method, path, status: res.status, body: res.body }).toEqual({
        method,
        path,
        status: 401,
        body: { detail: expect.any(String) },
      });
    }
    // A forged session cookie is no better.
    anonymous.cookies.set('credit_session', randomBytes(32).toString('base64url'));
    expect((await anonymous.call('GET', '/keys')).status).toBe(401);
  });

  it("another account's key id is 404, and the key stays active", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const created = await owner.client.call('POST', '/keys', { body: { name: 'mine' } });
    expect(await other.client.call('POST', `/keys/${created.body.key_id}/revoke`)).toMatchObject({
      status: 404,
      body: { detail: expect.any(String) },
    });
    expect(await other.client.call('POST', '/keys/key_doesnotexist/revoke')).toMatchObject({ status: 404 });
    expect((await http(stack.url, '/users/me', { key: created.body.key })).status).toBe(200);
    expect((await other.client.call('GET', '/keys')).body.keys).toEqual([]);
  });

  it('a state change without the CSRF token, with a wrong one, or from another origin is 403', async () => {
    const { client } = await signedIn();
    const before = (await client.call('GET', '/keys')).body.keys.length;
    expect(await client.call('POST', '/keys', { body: { name: 'x' }, csrf: false })).toMatchObject({
      status: 403,
      body: { detail: expect.stringMatching(/CSRF/) },
    });
    expect((await client.call('POST', '/keys', { body: { name: 'x' }, csrf: randomBytes(32).toString('base64url') })).status).toBe(403);
    expect((await client.call('POST', '/keys', { body: { name: 'x' }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await client.call('POST', '/signout', { csrf: false })).status).toBe(403);
    expect((await client.call('GET', '/keys')).body.keys.length).toBe(before);

    // Before sign-in: the header must match the credit_csrf cookie.
    const fresh = await new DashboardClient(stack.url).start();
    expect((await fresh.call('POST', '/signin', { body: { email: 'a@example.com', password: PASSWORD }, csrf: false })).status).toBe(403);
    fresh.cookies.delete('credit_csrf');
    expect((await fresh.call('POST', '/signin', { body: { email: 'a@example.com', password: PASSWORD } })).status).toBe(403);
  });

  it('a wrong password many times is rate limited (429 with Retry-After), and then even the right one waits', async () => {
    const { email } = await signedIn();
    const client = await new DashboardClient(stack.url).start();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await client.signIn(email, `wrong password ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const limited = await client.signIn(email, PASSWORD);
    expect(limited).toMatchObject({ status: 429, body: { detail: { error: 'rate_limited', retry_after: expect.any(Number) } } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await signedIn();
    expect((await other.client.call('GET', '/session')).status).toBe(200);
  });

  it('a session is worthless after sign-out, on every replica', async () => {
    const { client } = await signedIn();
    const saved = new Map(client.cookies);
    expect((await client.call('POST', '/signout')).status).toBe(204);
    expect(client.cookies.has('credit_session')).toBe(false);
    for (const base of [stack.url, replica.url]) {
      const replay = new DashboardClient(base);
      for (const [k, v] of saved) replay.cookies.set(k, v);
      expect(await replay.call('GET', '/keys')).toMatchObject({ status: 401, body: { detail: expect.any(String) } });
    }
  });

  it('pages are served with a strict CSP, and the OpenAPI document lists the dashboard endpoints', async () => {
    for (const path of ['/dashboard/', '/dashboard/keys', '/dashboard/usage', '/dashboard/signin']) {
      const res = await fetch(`${stack.url}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.text()).toContain('<script type="module" src="/dashboard/assets/js/main.js">');
    }
    // The modules, as JavaScript (a module script of another type is refused), revalidated by ETag.
    for (const path of ['/dashboard/assets/js/main.js', '/dashboard/assets/js/views/keys.js']) {
      const res = await fetch(`${stack.url}${path}`);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 200,
        type: 'text/javascript; charset=utf-8',
      });
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const again = await fetch(`${stack.url}${path}`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect({ path, status: again.status }).toEqual({ path, status: 304 });
    }
    // Only the folder's scripts and stylesheet: not the shell, nor anything a path climbs to.
    for (const path of [
      '/dashboard/assets/../../package.json',
      '/dashboard/assets/js/%2e%2e/%2e%2e/package.json',
      '/dashboard/assets/..%2f..%2fsrc%2fmain.ts',
      '/dashboard/assets/index.html',
      '/dashboard/assets/js/',
      '/dashboard/assets/__proto__',
    ]) {
      expect({ path, status: (await fetch(`${stack.url}${path}`)).status }).toEqual({ path, status: 404 });
    }
    const doc = (await http(stack.url, '/openapi.json')).body;
    expect(Object.keys(doc.paths).filter((p: string) => p.startsWith('/dashboard/api'))).toHaveLength(11);
    expect(doc.paths['/dashboard/api/keys'].post.security).toEqual([{ dashboardSession: [] }]);
  });
});

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
