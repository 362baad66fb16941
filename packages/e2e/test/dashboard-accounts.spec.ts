import { AccountRepository } from '@credit/db/account-repository';
import { DashboardClient, resetToken, verificationToken } from '@credit/test-stack/dashboard-client';
import { http } from '@credit/test-stack/test-stack';
import { PASSWORD, dashboardWorld, newEmail } from './support/dashboard-world';

/**
 * The account dashboard's accounts through a real gateway (two replicas sharing Postgres, Redis and
 * NATS), with the mails going to a local SMTP server: sign-up and email verification, claiming an
 * account the CLI made, sign-in, a session outliving its gateway, and the password reset.
 */

jest.setTimeout(60_000);

const world = dashboardWorld();
const { signedIn } = world;

describe('sign-up, email verification, sign-in', () => {
  it('mails a link; the password chosen on its page creates a verified free account; sign-in opens a session', async () => {
    const email = newEmail();
    const client = await new DashboardClient(world.stack.url).start();
    const since = world.smtp.messages.length;
    const signUp = await client.signUp(email.toUpperCase());
    expect(signUp).toMatchObject({ status: 202, body: { status: 'verification_sent' } });
    expect(signUp.headers.get('cache-control')).toBe('no-store');

    const mail = await world.smtp.waitFor(email, { since });
    expect(mail.subject).toMatch(/finish signing up/i);
    expect(mail.text).toContain(`${world.stack.url.replace('127.0.0.1', '127.0.0.1')}/dashboard/verify?token=`);
    // Nothing exists before the link is followed: sign-in fails.
    expect((await client.signIn(email, PASSWORD)).status).toBe(401);
    expect(await new AccountRepository(world.stack.db).findByEmail(email)).toBeNull();

    const token = verificationToken(mail.text);
    // Opening the link's page changes nothing (a mail scanner does that): the link still works after.
    expect((await fetch(`${world.stack.url}/dashboard/verify?token=${token}`)).status).toBe(200);
    expect(await new AccountRepository(world.stack.db).findByEmail(email)).toBeNull();
    expect(await client.verify(token, PASSWORD)).toMatchObject({ status: 200, body: { email, is_verified: true, keys_before: 0 } });
    // A link works once.
    expect(await client.verify(token, 'another password entirely')).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/already been used: your account is verified/), reason: 'link_used' },
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
    const stored = await world.stack.db.account.findUnique({ where: { email } });
    expect(stored?.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(stored?.passwordHash).not.toContain(PASSWORD);

    // The session works on the other replica too (it lives in Postgres).
    const other = new DashboardClient(world.replica.url);
    for (const [k, v] of client.cookies) other.cookies.set(k, v);
    expect(await other.call('GET', '/session')).toMatchObject({ status: 200, body: { account: { email } } });
  });

  it("claims an account the CLI made: the password is chosen on the link's page, the mail and the answer count its keys", async () => {
    const { key, email } = await world.stack.createKey({ email: newEmail() });
    expect((await http(world.stack.url, '/users/me', { key })).body).toMatchObject({ email, is_verified: false });

    const client = await new DashboardClient(world.stack.url).start();
    const since = world.smtp.messages.length;
    expect((await client.signUp(email)).status).toBe(202);
    expect((await client.signIn(email, PASSWORD)).status).toBe(401);
    const mail = await world.smtp.waitFor(email, { since });
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
    const fresh = await world.stack.startGatewayReplica();
    expect((await http(fresh.url, '/users/me', { key })).body).toMatchObject({ email, is_verified: true });
  });

  it('a sign-up for an email that has a password answers alike, mails a note, and changes nothing', async () => {
    const { email } = await signedIn();
    const intruder = await new DashboardClient(world.stack.url).start();
    const since = world.smtp.messages.length;
    expect(await intruder.signUp(email)).toMatchObject({ status: 202, body: { status: 'verification_sent' } });
    const mail = await world.smtp.waitFor(email, { since });
    expect(mail.text).toMatch(/already has an account/);
    expect(mail.text).not.toMatch(/verify\?token=/);
    expect((await intruder.signIn(email, 'another password entirely')).status).toBe(401);
    expect((await intruder.signIn(email, PASSWORD)).status).toBe(200);
  });

  it('refuses a bad email, a short password, a password at sign-up and unknown fields with 400 {error}', async () => {
    const client = await new DashboardClient(world.stack.url).start();
    expect(await client.signUp('not-an-email')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^email:/) } });
    const since = world.smtp.messages.length;
    const email = newEmail();
    await client.signUp(email);
    const token = verificationToken((await world.smtp.waitFor(email, { since })).text);
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
    const first = await world.stack.startGatewayReplica();
    const client = new DashboardClient(first.url);
    await client.start();
    const email = newEmail();
    await client.createAccount(world.smtp, email, PASSWORD);
    expect((await client.signIn(email, PASSWORD)).status).toBe(200);
    await client.call('POST', '/keys', { body: { name: 'survives' } });
    const before = await client.call('GET', '/keys');
    await first.close();

    const restarted = await world.stack.startGatewayReplica();
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
    const anonymous = await new DashboardClient(world.stack.url).start();
    const since = world.smtp.messages.length;
    expect(await anonymous.call('POST', '/password/forgot', { body: { email: email.toUpperCase() } })).toMatchObject({
      status: 202,
      body: { status: 'reset_sent' },
    });
    const mail = await world.smtp.waitFor(email, { since });
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
    const anonymous = await new DashboardClient(world.stack.url).start();
    const unknown = newEmail();
    const since = world.smtp.messages.length;
    expect((await anonymous.call('POST', '/password/forgot', { body: { email: unknown } })).body).toMatchObject({ status: 'reset_sent' });
    const { email } = await world.stack.createKey({ email: newEmail() });
    expect((await anonymous.call('POST', '/password/forgot', { body: { email } })).status).toBe(202);
    const mail = await world.smtp.waitFor(email, { since });
    expect(mail.text).toMatch(/choose your password/);
    expect(mail.text).toMatch(/\/dashboard\/verify\?token=/);
    expect(mail.text).not.toMatch(/reset\?token=/);
    expect(world.smtp.messages.slice(since).some((m) => m.to.includes(unknown))).toBe(false);
  });
});
