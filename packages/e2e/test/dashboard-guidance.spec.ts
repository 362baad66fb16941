import { createHash } from 'node:crypto';
import { AccountRepository } from '@credit/db/account-repository';
import { hashPassword } from '@credit/gateway/dashboard/password-hash';
import { DashboardClient, resetToken, verificationToken } from '@credit/test-stack/dashboard-client';
import { PASSWORD, dashboardWorld, newEmail } from './support/dashboard-world';

/**
 * What the dashboard's API tells a person who is stuck (issue 39): every bad field named at once,
 * an unverified sign-in told so only after the right password, "resend the verification email"
 * answering alike for every email, used and expired links told apart, and an unknown page path
 * answered with the page (its not-found view) while unknown API paths stay JSON.
 */

jest.setTimeout(60_000);

const world = dashboardWorld();
const client = () => new DashboardClient(world.stack.url).start();
const comparable = (r: { status: number; body: unknown }) => ({ status: r.status, body: r.body });

it('a 400 names every bad field, in our words', async () => {
  const answer = await (await client()).call('POST', '/verify', { body: { token: '', password: 'short' } });
  expect(answer.status).toBe(400);
  expect((answer.body as { error: string }).error).toMatch(/^token: .+; password: must have at least 12 characters$/);
});

/** An account with a password whose email is not verified (made before links verified emails). */
async function unverifiedAccount(): Promise<string> {
  const email = newEmail();
  const { account } = await new AccountRepository(world.stack.db).findOrCreateByEmail(email, 'free');
  await world.stack.db.account.update({
    where: { id: account.id },
    data: { passwordHash: await hashPassword(PASSWORD), isVerified: false },
  });
  return email;
}

it('signing in before the email is verified says so only once the password is right', async () => {
  const email = await unverifiedAccount();
  const c = await client();
  const wrong = await c.signIn(email, 'not the password at all');
  const unknown = await c.signIn(newEmail(), 'not the password at all');
  expect(comparable(wrong)).toEqual(comparable(unknown));
  expect(wrong.status).toBe(401);
  expect(await c.signIn(email, PASSWORD)).toMatchObject({
    status: 403,
    body: { detail: expect.stringMatching(/not verified/), reason: 'email_not_verified' },
  });
});

it('resending the verification email answers alike for every email and mails a new link to one that needs it', async () => {
  const known = (await world.signedIn()).email;
  const fresh = newEmail();
  const c = await client();
  const since = world.smtp.messages.length;
  const a = await c.call('POST', '/verification/resend', { body: { email: known } });
  const b = await c.call('POST', '/verification/resend', { body: { email: fresh } });
  expect(a.status).toBe(202);
  expect(comparable(a)).toEqual(comparable(b));
  const mail = await world.smtp.waitFor(fresh, { since });
  expect(mail.text).toMatch(/\/dashboard\/verify\?token=/);
  expect((await c.call('POST', '/verification/resend', { body: { email: 'not an email' } })).body).toEqual({
    error: 'email: must be an email address',
  });
});

it('resending for an account that has a password but no verified email mails a link that verifies it', async () => {
  const email = await unverifiedAccount();
  const c = await client();
  const since = world.smtp.messages.length;
  expect((await c.call('POST', '/verification/resend', { body: { email } })).status).toBe(202);
  const mail = await world.smtp.waitFor(email, { since });
  expect(mail.subject).toMatch(/Verify/);
  expect(mail.text).toMatch(/not verified yet/);
  expect(await c.call('POST', '/password/reset', { body: { token: resetToken(mail.text), password: PASSWORD } })).toMatchObject({
    status: 200,
  });
  expect((await c.signIn(email, PASSWORD)).status).toBe(200);
});

it('a used sign-up link says the account is verified; an expired one says to ask for another', async () => {
  const c = await client();
  const email = newEmail();
  let since = world.smtp.messages.length;
  await c.signUp(email);
  const used = verificationToken((await world.smtp.waitFor(email, { since })).text);
  expect((await c.verify(used, PASSWORD)).status).toBe(200);
  expect(await c.verify(used, PASSWORD)).toMatchObject({
    status: 400,
    body: { reason: 'link_used', detail: expect.stringMatching(/verified/) },
  });

  const other = newEmail();
  since = world.smtp.messages.length;
  await c.signUp(other);
  const expired = verificationToken((await world.smtp.waitFor(other, { since })).text);
  const id = createHash('sha256').update(expired).digest('hex');
  await world.stack.db.emailVerification.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  expect(await c.verify(expired, PASSWORD)).toMatchObject({
    status: 400,
    body: { reason: 'link_expired', detail: expect.stringMatching(/expired/) },
  });
  expect(await c.verify('A'.repeat(43), PASSWORD)).toMatchObject({ status: 400, body: { reason: 'link_invalid' } });
});

it('an unknown dashboard path is the page (its not-found view, 404); an unknown API path stays JSON', async () => {
  const page = await fetch(`${world.stack.url}/dashboard/nope`);
  expect(page.status).toBe(404);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
  expect(await page.text()).toContain('/dashboard/assets/js/main.js');
  const api = await fetch(`${world.stack.url}/dashboard/api/nope`);
  expect(api.status).toBe(404);
  expect(await api.json()).toEqual({ detail: 'Not found: GET /dashboard/api/nope' });
});
