import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { DashboardClient } from '@credit/test-stack/dashboard-client';
import { startTestStack, type TestStack } from '@credit/test-stack/test-stack';

export const PASSWORD = 'correct horse battery staple';
export const newEmail = () => `${uniquePrefix('dash')}@example.com`.toLowerCase();

/**
 * The account dashboard's world for one spec file: a real gateway and a second replica sharing
 * Postgres, Redis and NATS, the verification mails going to a local SMTP server. Started before
 * the file's tests and stopped after them; its fields are set once the file's `beforeAll` has run.
 */
export interface DashboardWorld {
  smtp: SmtpCapture;
  stack: TestStack;
  replica: RunningGateway;
  /** Signs up, chooses the password on the mailed link's page, signs in: a client with a session. */
  signedIn(email?: string, password?: string): Promise<{ client: DashboardClient; email: string }>;
}

export function dashboardWorld(): DashboardWorld {
  const w = {
    async signedIn(email = newEmail(), password = PASSWORD) {
      const client = await new DashboardClient(w.stack.url).start();
      expect((await client.createAccount(w.smtp, email, password)).status).toBe(200);
      expect((await client.signIn(email, password)).status).toBe(200);
      return { client, email };
    },
  } as DashboardWorld;

  beforeAll(async () => {
    w.smtp = await startSmtpCapture();
    w.stack = await startTestStack({
      // Cases here ask twice for one email's mail within a minute (the sign-up, then another's sign-up
      // of it): the interval that keeps the second from mailing has its own case in the security suite.
      env: { SMTP_URL: w.smtp.url, SIGNIN_MAX_ATTEMPTS_PER_IP: '1000', SIGNIN_MAX_FAILURES: '5', ACCOUNT_MAIL_INTERVAL_SECONDS: '0' },
    });
    w.replica = await w.stack.startGatewayReplica();
  });

  afterAll(async () => {
    await w.stack?.close();
    await w.smtp?.close();
  });

  return w;
}

/** `read()` again every 100 ms until `done` holds for its value or `timeoutMs` has passed; the last value. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
