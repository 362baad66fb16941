import * as crypto from 'node:crypto';
import { Logger, type LoggerService } from '@nestjs/common';
import { AccountRepository } from '@credit/db/account-repository';
import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient, resetToken, verificationToken } from '@credit/test-stack/dashboard-client';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';

/**
 * Taking over a dashboard account through its emails (issue 32), against a real gateway, Postgres,
 * Redis, NATS and a local SMTP server. The attacker knows the victim's email and can ask for any
 * mail; it never reads the victim's mailbox (nor do mail scanners that open its links count as the
 * owner acting). Each client sends its own address in X-Forwarded-For, trusted from loopback
 * (TRUST_PROXY), so the per-address limits of one case do not spill into another.
 */
jest.setTimeout(120_000);

const PER_IP = 6;
const PER_TOKEN = 3;
const OWNER_PASSWORD = 'the owner chose this one';
const STRANGER_PASSWORD = 'the stranger wants this';

let smtp: SmtpCapture;
let stack: TestStack;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  stack = await startTestStack({
    env: {
      SMTP_URL: smtp.url,
      TRUST_PROXY: 'loopback',
      SIGNIN_MAX_ATTEMPTS_PER_IP: '1000',
      EMAIL_LINK_MAX_ATTEMPTS_PER_IP: String(PER_IP),
      EMAIL_LINK_MAX_ATTEMPTS_PER_TOKEN: String(PER_TOKEN),
      // Cases here ask for several mails to one email at once; the interval has its own case.
      ACCOUNT_MAIL_INTERVAL_SECONDS: '0',
    },
  });
});

afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

let clients = 0;
const newEmail = () => `${uniquePrefix('takeover')}@example.com`.toLowerCase();
/** A browser at an address of its own (documentation range 198.51.100.0/24 and beyond). */
async function client(): Promise<DashboardClient> {
  clients += 1;
  const address = `198.51.${100 + Math.floor(clients / 250)}.${clients % 250}`;
  const browser = new DashboardClient(stack.url);
  const call = browser.call.bind(browser);
  browser.call = (method, path, options = {}) =>
    call(method, path, { ...options, headers: { 'x-forwarded-for': address, ...options.headers } });
  return browser.start();
}

/**
 * Counts scrypt runs in this process (the gateway runs in it): `node:crypto`'s own function, which
 * password-hash.ts calls. The module object itself, not an `import *` copy of it, is what it reads.
 */
function countScrypt(): { readonly calls: number; restore(): void } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object the gateway's code reads
  const spy = jest.spyOn(require('node:crypto') as typeof crypto, 'scrypt');
  return {
    get calls() {
      return spy.mock.calls.length;
    },
    restore: () => spy.mockRestore(),
  };
}

describe('claiming an account the operator made', () => {
  it("a stranger's sign-up cannot end with the stranger signed in, even after the owner follows the link and chooses a password", async () => {
    const { email, key } = await stack.createKey({ email: newEmail(), plan: 'pro' });
    const stranger = await client();
    // Sign-up takes no password any more: the old attack's body is refused outright.
    expect((await stranger.call('POST', '/signup', { body: { email, password: STRANGER_PASSWORD } })).status).toBe(400);
    const since = smtp.messages.length;
    expect((await stranger.signUp(email)).status).toBe(202);
    const mail = await smtp.waitFor(email, { since });
    const token = verificationToken(mail.text);

    // A mail scanner, then the owner, open the link: nothing changes until the owner sends the form.
    for (let i = 0; i < 3; i++) expect((await fetch(`${stack.url}/dashboard/verify?token=${token}`)).status).toBe(200);
    expect((await stack.db.account.findUnique({ where: { email } }))?.passwordHash).toBeNull();
    expect((await stack.db.emailVerification.findUnique({ where: { id: sha256(token) } }))?.usedAt).toBeNull();

    const owner = await client();
    expect(await owner.verify(token, OWNER_PASSWORD)).toMatchObject({ status: 200, body: { email, keys_before: 1 } });
    expect((await stranger.signIn(email, STRANGER_PASSWORD)).status).toBe(401);
    // The stranger cannot use the link either (it has none; a replay of the owner's is spent).
    expect((await stranger.verify(token, STRANGER_PASSWORD)).status).toBe(400);
    expect((await stranger.signIn(email, STRANGER_PASSWORD)).status).toBe(401);

    // The owner is in, with the operator's plan and key to review.
    expect(await owner.signIn(email, OWNER_PASSWORD)).toMatchObject({ status: 200, body: { account: { plan: 'pro' } } });
    const keys = await owner.call('GET', '/keys');
    expect(keys.body.keys).toHaveLength(1);
    expect((await fetch(`${stack.url}/users/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it("a stranger's sign-up for a new email: the account exists only once the mailbox's owner chooses the password", async () => {
    const email = newEmail();
    const stranger = await client();
    const since = smtp.messages.length;
    expect((await stranger.signUp(email)).status).toBe(202);
    const token = verificationToken((await smtp.waitFor(email, { since })).text);
    expect(await new AccountRepository(stack.db).findByEmail(email)).toBeNull();
    expect((await stack.db.emailVerification.findUnique({ where: { id: sha256(token) } })) ?? {}).not.toHaveProperty('passwordHash');
    const owner = await client();
    expect((await owner.verify(token, OWNER_PASSWORD)).status).toBe(200);
    expect((await stranger.signIn(email, STRANGER_PASSWORD)).status).toBe(401);
    expect((await owner.signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });

  it('two links for one account: the second cannot replace the password the first set', async () => {
    const { email } = await stack.createKey({ email: newEmail() });
    const stranger = await client();
    const first = smtp.messages.length;
    await stranger.signUp(email);
    const one = verificationToken((await smtp.waitFor(email, { since: first })).text);
    const second = smtp.messages.length;
    await stranger.signUp(email);
    const two = verificationToken((await smtp.waitFor(email, { since: second })).text);
    const owner = await client();
    expect((await owner.verify(one, OWNER_PASSWORD)).status).toBe(200);
    expect(await owner.verify(two, STRANGER_PASSWORD)).toMatchObject({
      status: 400,
      body: { detail: expect.stringMatching(/already has an account/) },
    });
    expect((await owner.signIn(email, OWNER_PASSWORD)).status).toBe(200);
  });
});

describe('password reset', () => {
  it('opening a reset link changes nothing; the owner sets the password and is told of the keys made before', async () => {
    const email = newEmail();
    const owner = await client();
    await owner.createAccount(smtp, email, OWNER_PASSWORD);
    await owner.signIn(email, OWNER_PASSWORD);
    await owner.call('POST', '/keys', { body: { name: 'made before' } });
    const since = smtp.messages.length;
    await (await client()).call('POST', '/password/forgot', { body: { email } });
    const token = resetToken((await smtp.waitFor(email, { since })).text);
    const before = await stack.db.account.findUnique({ where: { email } });
    for (let i = 0; i < 3; i++) expect((await fetch(`${stack.url}/dashboard/reset?token=${token}`)).status).toBe(200);
    expect((await stack.db.account.findUnique({ where: { email } }))?.passwordHash).toBe(before?.passwordHash);
    expect((await owner.call('GET', '/session')).status).toBe(200);
    expect((await stack.db.passwordReset.findUnique({ where: { id: sha256(token) } }))?.usedAt).toBeNull();
    expect(await owner.call('POST', '/password/reset', { body: { token, password: 'the owner reset to this' } })).toMatchObject({
      status: 200,
      body: { email, keys_before: 1 },
    });
  });

  it('made-up reset and sign-up links run no scrypt, and one address is 429 after its limit', async () => {
    const attacker = await client();
    const scrypt = countScrypt();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < PER_IP + 3; i++) {
        const path = i % 2 === 0 ? '/password/reset' : '/verify';
        const body =
          i % 2 === 0 ? { token: randomToken(), password: STRANGER_PASSWORD } : { token: randomToken(), password: STRANGER_PASSWORD };
        statuses.push((await attacker.call('POST', path, { body })).status);
      }
      expect(statuses).toEqual([...Array<number>(PER_IP).fill(400), 429, 429, 429]);
      expect(scrypt.calls).toBe(0);
      // Another address is not locked out by this one.
      expect(
        (await (await client()).call('POST', '/password/reset', { body: { token: randomToken(), password: STRANGER_PASSWORD } })).status,
      ).toBe(400);
      expect(scrypt.calls).toBe(0);
    } finally {
      scrypt.restore();
    }
  });

  it('one real link sent many times at once hashes at most its limit of passwords, and sets one', async () => {
    const email = newEmail();
    const owner = await client();
    await owner.createAccount(smtp, email, OWNER_PASSWORD);
    const since = smtp.messages.length;
    await (await client()).call('POST', '/password/forgot', { body: { email } });
    const token = resetToken((await smtp.waitFor(email, { since })).text);
    const scrypt = countScrypt();
    try {
      const senders = await Promise.all(Array.from({ length: 12 }, () => client()));
      const statuses = await Promise.all(
        senders.map((s, i) =>
          s.call('POST', '/password/reset', { body: { token, password: `parallel password ${i}` } }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(12 - PER_TOKEN);
      expect(scrypt.calls).toBeGreaterThanOrEqual(1); // the check counts what it should
      expect(scrypt.calls).toBeLessThanOrEqual(PER_TOKEN);
    } finally {
      scrypt.restore();
    }
  });
});

describe('forgot password and sign-up do not tell who has an account', () => {
  it('known and unknown emails get the same status, body and headers; the mail arrives after the answer', async () => {
    const known = newEmail();
    const owner = await client();
    await owner.createAccount(smtp, known, OWNER_PASSWORD);
    const { email: unclaimed } = await stack.createKey({ email: newEmail() });
    const unknown = newEmail();
    const asker = await client();
    for (const path of ['/password/forgot', '/signup']) {
      const since = smtp.messages.length;
      const answers = [];
      for (const email of [known, unclaimed, unknown]) answers.push(comparable(await asker.call('POST', path, { body: { email } })));
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect((await smtp.waitFor(known, { since })).subject).toMatch(path === '/signup' ? /your credit dashboard account/i : /reset/i);
      expect((await smtp.waitFor(unclaimed, { since })).subject).toMatch(/claim/i);
    }
  });

  it("a flood of requests for one email's mail sends it one mail (ACCOUNT_MAIL_INTERVAL_SECONDS), and answers all alike", async () => {
    const victim = newEmail();
    const owner = await client();
    await owner.createAccount(smtp, victim, OWNER_PASSWORD);
    const limited = await stack.startGatewayReplica({ TRUST_PROXY: 'loopback', ACCOUNT_MAIL_INTERVAL_SECONDS: '60' });
    const since = smtp.messages.length;
    const flood = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const asker = new DashboardClient(limited.url);
        const call = asker.call.bind(asker);
        asker.call = (method, path, options = {}) =>
          call(method, path, { ...options, headers: { 'x-forwarded-for': `203.0.113.${i + 1}`, ...options.headers } });
        await asker.start();
        return comparable(await asker.call('POST', '/password/forgot', { body: { email: victim } }));
      }),
    );
    expect(new Set(flood.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(flood[0]!.status).toBe(202);
    await smtp.waitFor(victim, { since });
    // A later mail through the same queue marks that the flood's jobs are all done.
    const sentinel = newEmail();
    await (await client()).call('POST', '/signup', { body: { email: sentinel } });
    await smtp.waitFor(sentinel, { since });
    expect(smtp.messages.slice(since).filter((m) => m.to.includes(victim))).toHaveLength(1);
  });

  it('a mail server that refuses does not change the answer: the mail is retried and logged, never a 503 for known emails only', async () => {
    const known = newEmail();
    const owner = await client();
    await owner.createAccount(smtp, known, OWNER_PASSWORD);
    const logs = captureLogs();
    // A stack of its own whose mail server is down (nothing listens on port 1).
    const down = await startTestStack({ env: { SMTP_URL: 'smtp://127.0.0.1:1', TRUST_PROXY: 'loopback' } });
    try {
      logs.start();
      await new AccountRepository(down.db).findOrCreateByEmail(known, 'free');
      await down.db.account.update({ where: { email: known }, data: { passwordHash: 'scrypt$1$8$1$AA==$AA==' } });
      const asker = new DashboardClient(down.url);
      await asker.start();
      const a = comparable(await asker.call('POST', '/password/forgot', { body: { email: known } }));
      const b = comparable(await asker.call('POST', '/password/forgot', { body: { email: newEmail() } }));
      expect(a).toEqual(b);
      expect(a.status).toBe(202);
      await waitUntil(() => logs.lines.some((l) => /forgot-password mail \S+ not sent \(try 1 of \d+\), retrying/.test(l)));
    } finally {
      logs.stop();
      await down.close();
    }
  });
});

describe('logs', () => {
  it('hold no mailed link unless MAIL_LOG_LINKS=1', async () => {
    const logs = captureLogs();
    const hidden = await startTestStack({ env: { TRUST_PROXY: 'loopback' } });
    const shown = await startTestStack({ env: { TRUST_PROXY: 'loopback', MAIL_LOG_LINKS: '1' } });
    try {
      logs.start();
      const secretEmail = newEmail();
      await (await new DashboardClient(hidden.url).start()).signUp(secretEmail);
      await waitUntil(() => logs.lines.some((l) => l.includes(`to ${secretEmail}`)));
      const openEmail = newEmail();
      await (await new DashboardClient(shown.url).start()).signUp(openEmail);
      await waitUntil(() => logs.lines.some((l) => l.includes(`to ${openEmail}`)));

      const about = (email: string) => logs.lines.filter((l) => l.includes(email)).join('\n');
      expect(about(secretEmail)).toMatch(/not sent \(no SMTP_URL\)/);
      expect(about(secretEmail)).not.toMatch(/token=/);
      expect(about(openEmail)).toMatch(/\/dashboard\/verify\?token=[A-Za-z0-9_-]{43}/);
      // Each mail is one log entry: the only ones with a link are the opted-in stack's.
      expect(logs.lines.filter((l) => /token=/.test(l)).every((l) => l.includes(openEmail))).toBe(true);
    } finally {
      logs.stop();
      await hidden.close();
      await shown.close();
    }
  });
});

/** Status, body and headers of an answer, without those that differ on every answer (date, request id, trace context). */
function comparable(res: { status: number; body: unknown; headers: Headers }) {
  const perAnswer = new Set(['date', 'x-request-id', 'traceparent']);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !perAnswer.has(name)));
  return { status: res.status, body: res.body, headers };
}

/**
 * Every line the gateways in this process log through Nest's Logger, from `start()` on (a gateway
 * built with `silent` turns the shared logger off: call `start()` after it).
 */
function captureLogs(): { lines: string[]; start(): void; stop(): void } {
  const lines: string[] = [];
  const push =
    (level: string) =>
    (message: unknown, ...rest: unknown[]) =>
      lines.push(`${level} [${String(rest.at(-1) ?? '')}] ${String(message)}`);
  const sink: LoggerService = {
    log: push('log'),
    warn: push('warn'),
    error: push('error'),
    debug: push('debug'),
    verbose: push('verbose'),
  };
  return {
    lines,
    start: () => {
      Logger.overrideLogger(sink);
      Logger.overrideLogger(['log', 'warn', 'error']);
    },
    stop: () => Logger.overrideLogger(false),
  };
}

async function waitUntil(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('not within the time allowed');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function sha256(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}
