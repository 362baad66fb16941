import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { AccountRepository } from '@credit/db/account-repository';
import { hashPassword } from '@credit/gateway/dashboard/password-hash';
import type { SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient, verificationToken } from '@credit/test-stack/dashboard-client';
import type { TestStack } from '@credit/test-stack/test-stack';
import { type DashboardBrowser, fitsTheScreen, seriousViolations, startDashboardBrowser, VIEWPORTS } from './support/dashboard-page';

/**
 * The dashboard telling a person what went wrong and what to do next (issue 39), in Chromium at a
 * desktop and a phone size, by keyboard: errors under their fields, a used link, a deep link kept
 * through sign-in, the not-found view, the sign-up form cleared, an unverified sign-in and an
 * expired link each offering "resend the verification email".
 */
jest.setTimeout(180_000);

declare const document: { activeElement: { id?: string; textContent: string | null } | null };

let smtp: SmtpCapture;
let stack: TestStack;
let browser: Browser;
let world: DashboardBrowser | undefined;

beforeAll(async () => {
  world = await startDashboardBrowser();
  ({ smtp, stack, browser } = world);
}, 300_000);

afterAll(() => world?.close());

describe.each(VIEWPORTS)('at %s size', (_name, viewport) => {
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    page = await (await browser.newContext({ viewport })).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
  });
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
  const focusedText = () => page.evaluate(() => document.activeElement?.textContent ?? '');

  /** As every page of the onboarding test: no sideways scroll, no serious or critical axe violation. */
  async function checkPage(): Promise<void> {
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  }

  it('errors go under their fields, all marked at once, the first focused, in our words', async () => {
    await page.goto(`${stack.url}/dashboard/signin`);
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Enter');
    const email = page.locator('#field-email');
    await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#field-password').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.getByTestId('field-email-error').textContent()).resolves.toBe('Enter your email.');
    await expect(page.getByTestId('field-password-error').textContent()).resolves.toBe('Enter your password.');
    await expect(email.getAttribute('aria-describedby')).resolves.toContain('field-email-error');
    expect(await focusedId()).toBe('field-email');
    await page.keyboard.type('not-an-email');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('field-email-error').textContent()).resolves.toBe('Enter an email address like name@example.com.');
  });

  it('a wrong sign-in offers to resend the verification email', async () => {
    await page.goto(`${stack.url}/dashboard/signin`);
    await page.getByLabel('Email').fill(`${uniquePrefix('nobody')}@example.com`.toLowerCase());
    await page.getByLabel('Password').fill('whatever it is here');
    await page.keyboard.press('Enter');
    await page.getByTestId('resend-verification').waitFor();
    await page.getByRole('button', { name: 'Resend the verification email' }).click();
    await page
      .getByTestId('message')
      .filter({ hasText: /we sent it a new link/ })
      .waitFor();
  });

  it('the right password of an email not verified says so and offers the resend, which answers', async () => {
    // Made as dashboard-guidance.spec.ts makes it: a password, the email not verified.
    const email = `${uniquePrefix('unverified')}@example.com`.toLowerCase();
    const { account } = await new AccountRepository(stack.db).findOrCreateByEmail(email, 'free');
    await stack.db.account.update({
      where: { id: account.id },
      data: { passwordHash: await hashPassword('a long and private passphrase'), isVerified: false },
    });
    await page.goto(`${stack.url}/dashboard/signin`);
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('a long and private passphrase');
    await page.keyboard.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'Your email is not verified yet' }).waitFor();
    const card = page.getByTestId('resend-verification');
    await expect(card.textContent()).resolves.toMatch(/new link; it opens the page that verifies your email/);
    await expect(card.getByRole('textbox', { name: 'Email' }).inputValue()).resolves.toBe(email);
    expect(page.url()).toMatch(/\/dashboard\/signin$/);
    await checkPage();

    await card.getByRole('textbox', { name: 'Email' }).focus();
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Resend the verification email');
    await page.keyboard.press('Enter');
    await page
      .getByTestId('message')
      .filter({ hasText: `If ${email} still needs verifying, we sent it a new link` })
      .waitFor();
    await checkPage();
  });

  it('an expired sign-up link shows the resend card; the resend mails a new link that works', async () => {
    const address = `${uniquePrefix('expired')}@example.com`.toLowerCase();
    const client = await new DashboardClient(stack.url).start();
    let since = smtp.messages.length;
    await client.signUp(address);
    const expired = verificationToken((await smtp.waitFor(address, { since })).text);
    const id = createHash('sha256').update(expired).digest('hex');
    await stack.db.emailVerification.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });

    await page.goto(`${stack.url}/dashboard/verify?token=${expired}`);
    await page.getByLabel('New password').focus();
    await page.keyboard.type('a long and private passphrase');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await page
      .getByTestId('message')
      .filter({ hasText: /expired/ })
      .waitFor();
    const card = page.getByTestId('resend-verification');
    await expect(card.getByRole('textbox', { name: 'Email' }).inputValue()).resolves.toBe('');
    await checkPage();

    since = smtp.messages.length;
    await card.getByRole('textbox', { name: 'Email' }).focus();
    await page.keyboard.type(address);
    await page.keyboard.press('Enter');
    await page
      .getByTestId('message')
      .filter({ hasText: `If ${address} still needs verifying, we sent it a new link` })
      .waitFor();
    const fresh = verificationToken((await smtp.waitFor(address, { since })).text);
    expect(fresh).not.toBe(expired);
    await checkPage();

    await page.goto(`${stack.url}/dashboard/verify?token=${fresh}`);
    await page.getByLabel('New password').fill('a long and private passphrase');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
  });

  it('sign-up clears the form and names the inbox; a used link says verified; a deep link survives sign-in', async () => {
    const address = `${uniquePrefix('guide')}@example.com`.toLowerCase();
    await page.goto(`${stack.url}/dashboard/signup`);
    await page.getByLabel('Email').fill(address);
    const since = smtp.messages.length;
    await page.keyboard.press('Enter');
    await page.getByTestId('message').filter({ hasText: address }).waitFor();
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('');
    const token = verificationToken((await smtp.waitFor(address, { since })).text);

    await page.goto(`${stack.url}/dashboard/verify?token=${token}`);
    await page.getByLabel('New password').fill('short');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('field-password-error').textContent()).resolves.toMatch(/at least 12 characters/);
    await page.getByLabel('New password').fill('a long and private passphrase');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your account is ready' }).waitFor();
    await page.goto(`${stack.url}/dashboard/verify?token=${token}`);
    await page.getByLabel('New password').fill('a long and private passphrase');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your email is verified' }).waitFor();

    await page.goto(`${stack.url}/dashboard/usage`);
    await page.waitForURL('**/dashboard/signin?next=*');
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill('a long and private passphrase');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard/usage');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/signin');

    // a forged `next` (another site, a protocol-relative one) never takes a signed-in user away
    for (const forged of ['https://evil.example/', '//evil.example/dashboard/keys']) {
      await page.goto(`${stack.url}/dashboard/signin?next=${encodeURIComponent(forged)}`);
      await page.getByLabel('Email').fill(address);
      await page.getByLabel('Password').fill('a long and private passphrase');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${stack.url}/dashboard/keys`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/dashboard/signin');
    }
  });

  it('a failed load shows why with Retry (no "Loading…" left); the "Copy it now" banner goes with Done', async () => {
    const address = `${uniquePrefix('retry')}@example.com`.toLowerCase();
    await new DashboardClient(stack.url).start().then((c) => c.createAccount(smtp, address, 'a long and private passphrase'));
    await page.goto(`${stack.url}/dashboard/signin`);
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill('a long and private passphrase');
    let failing = true;
    await page.route('**/dashboard/api/{keys,usage}', (route) =>
      failing && route.request().method() === 'GET'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"detail":"The dashboard is unavailable; try again shortly"}',
          })
        : route.continue(),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard/keys');
    await page.getByTestId('load-error').waitFor();
    await expect(page.getByText('Loading keys…').count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByTestId('load-error').filter({ hasText: 'Could not load your usage' }).waitFor();
    await expect(page.getByText('Loading usage…').count()).resolves.toBe(0);
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('usage-used').waitFor();

    await page.getByRole('link', { name: 'Keys' }).click();
    await page.locator('[data-testid="keys-table"]').waitFor();
    await page.getByLabel('Name').fill('banner test');
    await page.keyboard.press('Enter');
    await page.getByTestId('message').filter({ hasText: 'Copy it now' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('message').textContent()).resolves.toBe('');
    await page.unroute('**/dashboard/api/{keys,usage}');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/signin');
  });

  it('an unknown dashboard path shows the not-found view', async () => {
    const response = await page.goto(`${stack.url}/dashboard/nope`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(errors).toEqual([]);
  });
});
