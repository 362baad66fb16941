import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { getAddress } from 'viem';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { hashPassword } from '@credit/gateway/dashboard/password-hash';
import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startReferenceStack, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http } from '@credit/test-stack/test-stack';
import { fitsTheScreen as noSidewaysScroll, seriousViolations } from './support/dashboard-page';

// The path scripts/ensure-chromium.js installs Chromium at (Debian's package).
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS_DIR ?? join(__dirname, '..', '..', '..', 'docs', 'screenshots');

/**
 * The account dashboard in a real browser (Debian's Chromium, headless, driven by playwright-core)
 * on a phone-sized screen, against a real gateway with the scoring service on the reference devnet
 * and a local SMTP server: sign up, choose the password on the mailed link's page, sign in with the keyboard, create a key and read it
 * once, call the API with it, see "last used" and the usage move, revoke it (401), sign out.
 * Screenshots of the keys and usage pages go to docs/screenshots (linked from the README).
 */
jest.setTimeout(240_000);

/** What the functions run in the page read of its DOM (this file is typed for Node, without the DOM's types). */
declare const document: {
  activeElement: { type?: string } | null;
  querySelector(selector: string): { textContent: string | null } | null;
};

let smtp: SmtpCapture;
let reference: ReferenceStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  // The free plan's shipped rate limit (test stacks lift it), as the usage page's screenshot shows it.
  reference = await startReferenceStack(['scoring'], {
    gatewayEnv: { SMTP_URL: smtp.url, LEDGER_FLUSH_MS: '100', RATE_LIMIT_FREE_PER_MIN: '10' },
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, hasTouch: true });
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // The signed-out session probe's 401 is expected; Chromium logs every failed load as an error.
    if (message.type() === 'error' && !/status of 401/.test(message.text())) errors.push(message.text());
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  await smtp?.close();
});

const errors: string[] = [];
const base = () => reference.stack.url;

/** Waits until the element with this test id shows text matching `pattern`. */
async function waitForText(testId: string, pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    ([id, source, flags]) => new RegExp(source, flags).test(document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''),
    [testId, pattern.source, pattern.flags] as const,
  );
}

/** The page fits the screen (nothing scrolls sideways) and axe-core finds no serious or critical violation. */
async function fitsTheScreen(): Promise<boolean> {
  expect(await seriousViolations(page)).toEqual([]);
  return noSidewaysScroll(page);
}

it('sign up, sign in, create a key shown once, use it, see last used and usage, revoke it, sign out', async () => {
  const email = `${uniquePrefix('browser')}@example.com`.toLowerCase();
  const password = 'a long and private passphrase';

  // Sign up with the email only: the link goes to the SMTP server.
  await page.goto(`${base()}/dashboard/signup`);
  expect(await fitsTheScreen()).toBe(true);
  await page.getByLabel('Email').fill(email);
  const since = smtp.messages.length;
  await page.getByRole('button', { name: 'Create account' }).click();
  await waitForText('message', /check your email/i);
  const mail = await smtp.waitFor(email, { since });
  const link = /(http:\/\/\S+\/dashboard\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

  // The link opens the page where the password is chosen; opening it created nothing.
  await page.goto(link);
  expect(await new AccountRepository(reference.stack.db).findByEmail(email)).toBeNull();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await waitForText('message', /account is ready/i);
  expect(page.url()).not.toContain('token=');

  // Sign in with the keyboard only: the fields are reached by Tab and the form sent with Enter.
  await page.goto(`${base()}/dashboard/signin`);
  await page.getByLabel('Email').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.type)).toBe('password');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.waitForURL('**/dashboard/keys');

  // Create a key: its value is shown once, with a copy button.
  await page.getByLabel('Name').fill('phone test');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-key');
  await shown.waitFor();
  const key = ((await shown.inputValue().catch(() => null)) ?? (await shown.textContent()) ?? '').trim();
  expect(key).toMatch(/^csk_[0-9A-Za-z]{40}$/);
  await expect(page.getByRole('button', { name: 'Copy', exact: true }).isVisible()).resolves.toBe(true);
  // The quickstart has the key filled in; the panel is what the README shows of a new key.
  await expect(page.getByTestId('snippet-curl').textContent()).resolves.toContain(`Bearer ${key}`);
  expect(await fitsTheScreen()).toBe(true);
  await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-new-key.png'), fullPage: true });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('new-key').count()).resolves.toBe(0);
  expect(await page.content()).not.toContain(key);

  const row = page.locator('[data-testid="keys-table"] tr[data-key-id]');
  await expect(row.count()).resolves.toBe(1);
  await expect(row.locator('[data-col="name"]').textContent()).resolves.toContain('phone test');
  await expect(row.locator('[data-col="status"]').textContent()).resolves.toMatch(/active/i);
  await expect(row.locator('[data-col="last-used"]').textContent()).resolves.toMatch(/never/i);

  // Reloaded, the page has the key's first characters only.
  await page.reload();
  await row.first().waitFor();
  expect(await page.content()).not.toContain(key);

  // The key works: the key test and a production score (1 CU) on the reference devnet.
  expect((await http(base(), '/users/me', { key })).body).toMatchObject({ email, is_verified: true });
  const borrower = getAddress(reference.world.devnet.state.cast.healthy_borrower!.address);
  const score = await http(base(), `/api/v2/score/address/${borrower}`, { key });
  expect({ status: score.status, cost: score.headers.get('x-cu-cost') }).toEqual({ status: 200, cost: '1' });

  // "Last used" appears (the gateway writes it within LAST_USED_FLUSH_MS).
  await refreshUntil(async () => !/never/i.test((await row.locator('[data-col="last-used"]').textContent()) ?? ''));
  expect(await fitsTheScreen()).toBe(true);
  await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-keys.png'), fullPage: true });

  // Usage: 1 CU used of the free plan's 1,000, on today's bar, for the score.
  await page.getByRole('link', { name: 'Usage' }).click();
  await page.waitForURL('**/dashboard/usage');
  await refreshUntil(async () => ((await page.getByTestId('usage-used').textContent()) ?? '').trim() === '1');
  await expect(page.getByTestId('usage-plan').textContent()).resolves.toMatch(/free/i);
  await expect(page.getByTestId('usage-remaining').textContent()).resolves.toMatch(/999/);
  await expect(page.getByTestId('usage-limit').textContent()).resolves.toMatch(/1,?000/);
  await refreshUntil(async () => /scoreAddress/.test((await page.getByTestId('usage-table').textContent()) ?? ''));
  await expect(page.getByTestId('usage-chart').isVisible()).resolves.toBe(true);
  // Today's CU on its bar, the key's CU, the quota bar (no warning at 1 of 1,000).
  await expect(page.locator('[data-testid="usage-chart"] text.bar-value').textContent()).resolves.toBe('1');
  await refreshUntil(async () => /phone test.*1 CU/.test((await page.getByTestId('usage-by-key').textContent()) ?? ''));
  // The score counted as served (2xx) for its key, once the gateway has written its counts.
  const served = page.locator('[data-testid="usage-by-key"] td[data-status="2xx"]').first();
  await refreshUntil(async () => (await served.textContent()) === '1');
  await expect(page.getByTestId('quota').getAttribute('data-level')).resolves.toBe('ok');
  await expect(page.getByTestId('quota-meter').getAttribute('value')).resolves.toBe('1');
  await expect(page.getByTestId('rate-limit').textContent()).resolves.toContain('"api";q=10;w=60');
  expect(await fitsTheScreen()).toBe(true);
  await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-usage.png'), fullPage: true });

  // Revoke, confirmed in a dialog: the key is refused at once.
  await page.getByRole('link', { name: 'Keys' }).click();
  await page.waitForURL('**/dashboard/keys');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('button', { name: 'Revoke key' }).click();
  await refreshUntil(async () => /revoked/i.test((await row.locator('[data-col="status"]').textContent()) ?? ''));
  expect((await http(base(), '/users/me', { key })).status).toBe(401);

  // Sign out: the session is gone, the keys page sends the browser to sign in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/dashboard/signin');
  expect((await page.request.get(`${base()}/dashboard/api/session`)).status()).toBe(401);
  await page.goto(`${base()}/dashboard/keys`);
  await page.waitForURL('**/dashboard/signin');

  expect(errors).toEqual([]);
});

it('a forgotten password: the link from the email opens a page that sets a new one and asks to review the keys made before', async () => {
  const email = `${uniquePrefix('forgot')}@example.com`.toLowerCase();
  const { account } = await new AccountRepository(reference.stack.db).findOrCreateByEmail(email, 'free');
  await reference.stack.db.account.update({
    where: { id: account.id },
    data: { passwordHash: await hashPassword('the forgotten passphrase') },
  });
  await new ApiKeyRepository(reference.stack.db).create({ accountId: account.id, name: 'made before the reset' });

  await page.goto(`${base()}/dashboard/signin`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.waitForURL('**/dashboard/forgot');
  await page.getByLabel('Email').fill(email);
  const since = smtp.messages.length;
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await waitForText('message', /we sent it a link/i);
  const mail = await smtp.waitFor(email, { since });
  await page.goto(/(http:\/\/\S+\/dashboard\/reset\?token=[A-Za-z0-9_-]+)/.exec(mail.text)![1]!);
  await page.getByLabel('New password').fill('my new remembered passphrase');
  await page.getByRole('button', { name: 'Set password' }).click();
  await waitForText('message', /password changed/i);
  await waitForText('keys-before', /1 API key made before/);
  // The heading follows the page's state: the password is no longer to be chosen.
  await page.getByRole('heading', { name: 'Password changed' }).waitFor();
  expect(page.url()).not.toContain('token=');

  await page.getByRole('link', { name: 'Continue to sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('my new remembered passphrase');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard/keys');
  expect(errors).toEqual([]);
});

/** Presses the page's Refresh button until `done` holds (the ledger and `last used` are written in the background). */
async function refreshUntil(done: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('the page did not show the expected state in time');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(200);
  }
}
