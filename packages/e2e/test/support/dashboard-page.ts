import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Db } from '@credit/db/prisma-client';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';

/** What the functions run in the page read of it (the e2e package is typed for Node, without the DOM's types). */
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };
declare const axe: {
  run(options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }>;
};

/** axe-core's browser bundle (the pinned devDependency), evaluated in the page by the DevTools protocol, which the CSP does not govern. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The page's serious and critical accessibility violations by axe-core's WCAG 2.x A and AA rules
 * and its best practices, one line each (rule, help, elements): an empty list passes.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const { violations } = await axe.run({ resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Nothing scrolls sideways: the document is no wider than the window. */
export function fitsTheScreen(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Whether the locator's box lies inside the viewport's width (and has a size). */
export async function withinWidth(page: Page, box: { x: number; width: number } | null): Promise<boolean> {
  const width = page.viewportSize()!.width;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/**
 * Stored usage for an account, as the metering writes it: one charge row of the usage ledger per
 * `{keyId, operation, cu}`, today. Written before the month's counter exists (before the account's
 * first usage read or metered call), the counter is built from these rows, like every counter
 * Redis lost.
 */
export async function storeCharges(db: Db, accountId: string, charges: { keyId: string; operation: string; cu: number }[]): Promise<void> {
  const now = new Date();
  await new UsageLedgerRepository(db).insert(
    charges.map(({ keyId, operation, cu }) => {
      const chargeId = randomUUID();
      return {
        entryId: chargeId,
        chargeId,
        accountId,
        keyId,
        operation,
        kind: 'charge' as const,
        cu,
        statusCode: null,
        requestId: `test-${chargeId}`,
        period: now.toISOString().slice(0, 7),
        occurredAt: now,
      };
    }),
  );
}

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The viewports every dashboard browser test runs at: a desktop and a phone. */
export const VIEWPORTS = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

export interface DashboardBrowser {
  smtp: SmtpCapture;
  stack: TestStack;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * A browser test's world: mail captured, a gateway stack that mails through it (sign-in limits
 * and mail deduplication off, so a file's many sign-ins and mails all go through), and Chromium.
 */
export async function startDashboardBrowser(): Promise<DashboardBrowser> {
  const smtp = await startSmtpCapture();
  const stack = await startTestStack({
    env: { SMTP_URL: smtp.url, SIGNIN_MAX_ATTEMPTS_PER_IP: '1000', ACCOUNT_MAIL_INTERVAL_SECONDS: '0' },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  return {
    smtp,
    stack,
    browser,
    close: async () => {
      await browser.close();
      await stack.close();
      await smtp.close();
    },
  };
}
