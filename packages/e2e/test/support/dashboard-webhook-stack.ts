import { connect, type NatsConnection } from 'nats';
import { startSmtpCapture, type SmtpCapture } from '@credit/testing/smtp-capture';
import { NATS_URL, REDIS_URL, startTestStack, type TestStack } from '@credit/test-stack/test-stack';
import { webhooksConfig } from '@credit/webhooks/config';
import { startDeliveryWorker, type RunningDeliveryWorker } from '@credit/webhooks/delivery-worker';
import { silentLogger } from '@credit/webhooks/logger';
import { startWebhookReceiver, type WebhookReceiver } from '@credit/testing/webhook-receiver';

/** A stack for the dashboard's webhooks page: the gateway, apps/webhooks' delivery worker and a local receiver. */
export interface DashboardWebhookStack {
  smtp: SmtpCapture;
  stack: TestStack;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

/**
 * A real gateway on Postgres, Redis and NATS with WEBHOOK_ALLOW_PRIVATE (a receiver on 127.0.0.1
 * is a target) and sign-ups mailed to a capture, the delivery worker on the same database and
 * prefix, and a receiver. The scoring service's part in a creation (each address's baseline over
 * `credit.score.watch.v1`) is answered on the stack's prefix with a score of 700.
 */
export async function startDashboardWebhookStack(): Promise<DashboardWebhookStack> {
  const smtp = await startSmtpCapture();
  const stack = await startTestStack({
    env: { SMTP_URL: smtp.url, SIGNIN_MAX_ATTEMPTS_PER_IP: '1000', ACCOUNT_MAIL_INTERVAL_SECONDS: '0', WEBHOOK_ALLOW_PRIVATE: '1' },
  });
  const nc: NatsConnection = await connect({ servers: NATS_URL });
  nc.subscribe(`${stack.prefix}.credit.score.watch.v1`, {
    callback: (_error, msg) => {
      const { id, data } = msg.json<{ id: string; data: { addresses: string[] } }>();
      const scores = data.addresses.map((address) => ({ address, score: 700, decile: 5, range: 'good', factors: [] }));
      msg.respond(JSON.stringify({ id, response: { scores }, isDisposed: true }));
    },
  });
  const receiver = await startWebhookReceiver();
  const worker: RunningDeliveryWorker = await startDeliveryWorker(
    webhooksConfig({
      DATABASE_URL: stack.databaseUrl,
      REDIS_URL,
      NATS_URL,
      NATS_SUBJECT_PREFIX: stack.prefix,
      HEALTH_PORT: '0',
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE: '1',
    }),
    silentLogger,
  );
  return {
    smtp,
    stack,
    receiver,
    async close() {
      await worker.close();
      await receiver.close();
      await nc.drain();
      await stack.close();
      await smtp.close();
    },
  };
}
