import { chromium, type Browser, type Page } from 'playwright-core';
import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient, verificationToken } from '@credit/test-stack/dashboard-client';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * The dashboard telling a person what went wrong and what to do next (issue 39), in Chromium at a
 * desktop and a phone size, by keyboard: errors under their fields, a used link, a deep link kept
 * through sign-in, the not-found view, the sign-up form cleared.
 */
jest.setTimeout(180_000);

declare const document: { activeElement: { id?: string } | null };

let smtp: SmtpCapture;
let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  stack = await startTestStack({ env: { SMTP_URL: smtp.url, SIGNIN_MAX_ATTEMPTS_PER_IP: '1000', ACCOUNT_MAIL_INTERVAL_SECONDS: '0' } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await smtp?.close();
});

describe.each([
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
])('at %s size', (_name, viewport) => {
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    page = await (await browser.newContext({ viewport })).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
  });
  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');

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
