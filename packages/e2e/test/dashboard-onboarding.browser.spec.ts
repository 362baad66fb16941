import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { PLANS, PLAN_NAMES } from '@credit/contracts/pricing';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { UsageStatusRepository } from '@credit/db/usage-status-repository';
import type { SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { http, type TestStack } from '@credit/test-stack/test-stack';
import {
  type DashboardBrowser,
  fitsTheScreen,
  seriousViolations,
  startDashboardBrowser,
  storeCharges,
  VIEWPORTS,
  withinWidth,
} from './support/dashboard-page';

const PASSWORD = 'a long and private passphrase';

/**
 * The dashboard as a new user's guide (issue 39, part B), in Chromium at a desktop and a phone
 * size, by keyboard: the new key whole and copyable with a quickstart that works, the keys as
 * cards on a phone, the usage page's quota, CU per key, values on the bars, prices and rate limit
 * and the plans side by side with the way to change (every figure from stored usage, the contracts,
 * the RateLimit-Policy header or the usage reply), no page wider
 * than the screen, and axe-core finding no serious or critical violation on any page.
 */
jest.setTimeout(180_000);

declare const document: {
  activeElement: { id?: string; textContent: string | null } | null;
};

let smtp: SmtpCapture;
let stack: TestStack;
let browser: Browser;
let world: DashboardBrowser | undefined;

beforeAll(async () => {
  world = await startDashboardBrowser();
  ({ smtp, stack, browser } = world);
}, 300_000);

afterAll(() => world?.close());

/** A verified account with a password; its id. */
async function newAccount(email: string): Promise<string> {
  await new DashboardClient(stack.url).start().then((c) => c.createAccount(smtp, email, PASSWORD));
  return (await new AccountRepository(stack.db).findByEmail(email))!.id;
}

describe.each(VIEWPORTS)('at %s size', (size, viewport) => {
  const phone = size === 'phone';
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    page = await (await browser.newContext({ viewport })).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
  });
  const focused = () => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent ?? '' }));

  /** Every page is checked alike: no sideways scroll, no serious or critical axe violation. */
  async function checkPage(): Promise<void> {
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  }

  async function signIn(email: string): Promise<void> {
    await page.context().clearCookies(); // a case that failed signed in does not fail the next
    await page.goto(`${stack.url}/dashboard/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard/keys');
  }

  it('the pages before sign-in fit the screen and pass axe', async () => {
    for (const path of ['signin', 'signup', 'forgot', 'reset?token=nothing', 'nope']) {
      await page.goto(`${stack.url}/dashboard/${path}`);
      await page.locator('h1').first().waitFor();
      await checkPage();
    }
  });

  it('a new key: all of it in view and copyable, Done by keyboard; a quickstart with the key filled in that works, and the docs', async () => {
    const email = `${uniquePrefix('quick')}@example.com`.toLowerCase();
    await newAccount(email);
    await signIn(email);
    await page.locator('[data-testid="keys-table"]').waitFor();
    await checkPage();

    await page.getByLabel('Name').focus();
    await page.keyboard.type('quickstart');
    await page.keyboard.press('Enter');
    const shown = page.getByTestId('new-key');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^csk_[0-9A-Za-z]{40}$/);
    // Wrapped, not cut: the box holds all of the key, and the box is on the screen.
    const fits = await shown.evaluate((el: { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number }) => ({
      across: el.scrollWidth <= el.clientWidth,
      down: el.scrollHeight <= el.clientHeight,
    }));
    expect(fits).toEqual({ across: true, down: true });
    expect(await withinWidth(page, await shown.boundingBox())).toBe(true);
    // The key and Done are on the screen together, Done above the fold.
    for (const box of [await shown.boundingBox(), await page.getByRole('button', { name: 'Done' }).boundingBox()]) {
      expect(box!.y >= 0 && box!.y + box!.height <= viewport.height).toBe(true);
    }

    // The snippets carry the key and this gateway's address; the docs link is served.
    const curl = (await page.getByTestId('snippet-curl').textContent()) ?? '';
    const node = (await page.getByTestId('snippet-node').textContent()) ?? '';
    for (const snippet of [curl, node]) {
      expect(snippet).toContain(`${stack.url}/api/v2/score/address/0x`);
      expect(snippet).toContain(`Bearer ${key}`);
    }
    for (const id of ['snippet-curl', 'snippet-node']) expect(await withinWidth(page, await page.getByTestId(id).boundingBox())).toBe(true);
    const docs = page.getByTestId('docs-link');
    expect(await docs.getAttribute('href')).toBe('/docs');
    expect((await page.request.get(`${stack.url}/docs`)).status()).toBe(200);
    // Pasted as shown, the Node snippet reaches the API with the key: authenticated, whatever the
    // test stack's scoring answers (it runs no scoring service).
    const run = await promisify(execFile)('node', ['--input-type=module', '-e', node], { timeout: 60_000 });
    const status = Number(run.stdout.trim().split(/\s/)[0]);
    expect(status).toBeGreaterThanOrEqual(200);
    expect([401, 403]).not.toContain(status);
    await checkPage();

    // Keyboard only: the key is focused, then Copy, then Done, which takes the key off the page.
    expect((await focused()).id).toBe('new-key');
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Copy');
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Done');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('new-key').count()).resolves.toBe(0);
    await expect(page.getByTestId('quickstart').count()).resolves.toBe(0);
    expect(await page.content()).not.toContain(key);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/signin');
  });

  it(`each key shows its name, key, dates, status and Revoke together (${phone ? 'a card' : 'a row'}); revoked by keyboard`, async () => {
    const email = `${uniquePrefix('cards')}@example.com`.toLowerCase();
    const accountId = await newAccount(email);
    const keys = new ApiKeyRepository(stack.db);
    await keys.create({ accountId, name: 'a server with a rather long name for a phone' });
    await keys.create({ accountId, name: 'ci' });
    await signIn(email);
    const rows = page.locator('[data-testid="keys-table"] tr[data-key-id]');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(2);
    for (const row of await rows.all()) {
      const rowBox = (await row.boundingBox())!;
      expect(await withinWidth(page, rowBox)).toBe(true);
      const parts = ['[data-col="name"]', '[data-col="start"]', '[data-col="created"]', '[data-col="last-used"]', '[data-col="status"]'];
      const boxes = await Promise.all([
        ...parts.map((s) => row.locator(s).boundingBox()),
        row.getByRole('button', { name: 'Revoke' }).boundingBox(),
      ]);
      for (const box of boxes) {
        expect(await withinWidth(page, box)).toBe(true);
        // inside the key's own card or row
        expect(box!.y >= rowBox.y - 0.5 && box!.y + box!.height <= rowBox.y + rowBox.height + 0.5).toBe(true);
      }
      // A phone stacks the parts in a card; a desktop keeps them on one line.
      const [name, , created] = boxes;
      if (phone) expect(created!.y).toBeGreaterThan(name!.y + name!.height / 2);
      else expect(Math.abs(created!.y + created!.height / 2 - (name!.y + name!.height / 2))).toBeLessThan(12);
    }
    await checkPage();

    const ci = rows.filter({ hasText: 'ci' }).filter({ hasNotText: 'rather long' });
    await ci.getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    expect((await focused()).text).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Revoke key');
    await page.keyboard.press('Enter');
    await ci
      .locator('[data-col="status"]')
      .filter({ hasText: /revoked/i })
      .waitFor();
    await expect(ci.getByRole('button', { name: 'Revoke' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/signin');
  });

  it('usage: a quota bar warning at 80 %, CU per key, values on the bars and in view, prices from the contracts, the rate limit of RateLimit-Policy, the plans', async () => {
    const email = `${uniquePrefix('usage')}@example.com`.toLowerCase();
    const accountId = await newAccount(email);
    const keys = new ApiKeyRepository(stack.db);
    const server = await keys.create({ accountId, name: 'server' });
    const laptop = await keys.create({ accountId, name: 'laptop' });
    await storeCharges(stack.db, accountId, [
      { keyId: server.keyId, operation: 'scoreAddress', cu: 500 },
      { keyId: server.keyId, operation: 'scoreBatch', cu: 100 },
      { keyId: laptop.keyId, operation: 'scoreAddress', cu: 200 },
    ]);
    const day = new Date().toISOString().slice(0, 10);
    await new UsageStatusRepository(stack.db).add([
      { accountId, keyId: server.keyId, day, statusClass: '2xx', requests: 600 },
      { accountId, keyId: server.keyId, day, statusClass: '4xx', requests: 3 },
      { accountId, keyId: server.keyId, day, statusClass: '429', requests: 2 },
    ]);
    await signIn(email);
    await page.getByRole('link', { name: 'Usage' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard/usage');
    await page.getByTestId('quota').waitFor();

    // 800 of the free plan's 1,000 CU: the bar and an 80 % warning.
    await expect(page.getByTestId('usage-used').textContent()).resolves.toBe('800');
    await expect(page.getByTestId('quota').getAttribute('data-level')).resolves.toBe('warn');
    await expect(page.getByTestId('quota-percent').textContent()).resolves.toBe('80 %');
    await expect(page.getByTestId('quota-meter').getAttribute('value')).resolves.toBe('800');
    await expect(page.getByTestId('quota-meter').getAttribute('max')).resolves.toBe('1000');
    await expect(page.getByTestId('quota-warning').textContent()).resolves.toMatch(/used 80 % of this month’s CU/);

    // CU per key, from the ledger.
    const byKey = page.getByTestId('usage-by-key');
    await expect(byKey.locator(`tr[data-key-id="${server.keyId}"]`).textContent()).resolves.toMatch(/server.*600 CU/);
    await expect(byKey.locator(`tr[data-key-id="${laptop.keyId}"]`).textContent()).resolves.toMatch(/laptop.*200 CU/);
    // Its requests by how they were answered, each figure named on a phone's card too.
    const serverRow = byKey.locator(`tr[data-key-id="${server.keyId}"]`);
    for (const [status, count] of Object.entries({ '2xx': '600', '4xx': '3', '429': '2', '5xx': '0' })) {
      await expect(serverRow.locator(`td[data-status="${status}"]`).textContent()).resolves.toBe(count);
      expect(await withinWidth(page, await serverRow.locator(`td[data-status="${status}"]`).boundingBox())).toBe(true);
    }

    // Today's total is written on its bar and in the table's Total column, both on the screen.
    const today = new Date().toISOString().slice(0, 10);
    const barValue = page.locator(`[data-testid="usage-chart"] text.bar-value[data-date="${today}"]`);
    await expect(barValue.textContent()).resolves.toBe('800');
    expect(await withinWidth(page, await barValue.boundingBox())).toBe(true);
    const todayTotal = page.locator('[data-testid="usage-table"] tbody tr').last().locator('td.total');
    await expect(todayTotal.textContent()).resolves.toBe('800');
    expect(await withinWidth(page, await todayTotal.boundingBox())).toBe(true);

    // Each operation's price as its definition in the contracts states it.
    for (const id of OPERATION_IDS) {
      const { price } = HTTP_OPERATIONS[id];
      const expected = (price.cu as number) === 0 ? 'free' : `${price.cu} CU ${price.kind === 'per_address' ? 'an address' : 'a call'}`;
      await expect(page.locator(`[data-testid="prices-table"] tr[data-operation="${id}"] td.num`).textContent()).resolves.toBe(expected);
    }

    // The rate limit shown is the one a call's RateLimit-Policy header states (the free sandbox costs no CU).
    const call = await http(stack.url, '/api/v2/sandbox/score/address/0x0000000000000000000000000000000000000001', { key: server.key });
    const [, q, w] = /q=(\d+);w=(\d+)/.exec(call.headers.get('ratelimit-policy') ?? '')!;
    const rateLimit = (await page.getByTestId('rate-limit').textContent()) ?? '';
    expect(rateLimit).toContain(`"api";q=${q};w=${w}`);
    expect(rateLimit.replace(/[,\s\u202f]/g, '')).toContain(`${q}requests${w === '60' ? 'aminute' : `every${w}seconds`}`);

    // Every plan, in PLANS' order, with its allowance and the rate limit the usage reply gives; the
    // free plan marked as this account's; moving is asked of the operator, with the docs linked.
    const reply = await (await page.request.get(`${stack.url}/dashboard/api/usage`)).json();
    const cards = page.locator('[data-testid="plans"] li[data-plan]');
    await expect(cards.count()).resolves.toBe(PLAN_NAMES.length);
    for (const [i, name] of PLAN_NAMES.entries()) {
      const card = cards.nth(i);
      await expect(card.getAttribute('data-plan')).resolves.toBe(name);
      const cu = PLANS[name].monthlyCu;
      const allowance = ((await card.getByTestId('plan-allowance').textContent()) ?? '').replace(/[,\s\u202f]/g, '');
      expect(allowance).toBe(cu === null ? 'UnlimitedCUamonth' : `${cu}CUamonth`);
      const rate = reply.plans[i].rate_limit;
      expect(((await card.getByTestId('plan-rate-limit').textContent()) ?? '').replace(/[,\s\u202f]/g, '')).toBe(
        `${rate.requests}requests${rate.window_seconds === 60 ? 'aminute' : `every${rate.window_seconds}seconds`}`,
      );
      await expect(card.getAttribute('aria-current')).resolves.toBe(name === 'free' ? 'true' : null);
      expect(await withinWidth(page, await card.boundingBox())).toBe(true);
    }
    expect(reply.plans[0].rate_limit).toEqual({ requests: Number(q), window_seconds: Number(w) });
    await expect(page.getByTestId('current-plan').count()).resolves.toBe(1);
    await expect(cards.filter({ has: page.getByTestId('current-plan') }).getAttribute('data-plan')).resolves.toBe('free');
    const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
    if (phone)
      expect(second!.y).toBeGreaterThan(first!.y + first!.height / 2); // stacked
    else expect(second!.y).toBeCloseTo(first!.y, 0); // side by side
    await expect(page.getByTestId('plan-change').textContent()).resolves.toMatch(/ask your operator/);
    await expect(page.getByTestId('plans-docs-link').getAttribute('href')).resolves.toBe('/docs');
    await checkPage();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/signin');
  });

  it('usage: the whole allowance used says calls are refused, until when', async () => {
    const email = `${uniquePrefix('full')}@example.com`.toLowerCase();
    const accountId = await newAccount(email);
    const { keyId } = await new ApiKeyRepository(stack.db).create({ accountId, name: 'busy' });
    await storeCharges(stack.db, accountId, [{ keyId, operation: 'scoreAddress', cu: 1000 }]);
    await signIn(email);
    await page.goto(`${stack.url}/dashboard/usage`);
    await page.getByTestId('quota').waitFor();
    await expect(page.getByTestId('quota').getAttribute('data-level')).resolves.toBe('full');
    await expect(page.getByTestId('quota-percent').textContent()).resolves.toBe('100 %');
    await expect(page.getByTestId('quota-warning').textContent()).resolves.toMatch(/used all of this month’s 1,?000 CU.*refused/);
    await checkPage();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard/signin');
    expect(errors).toEqual([]);
  });
});
