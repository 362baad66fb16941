import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devnetX402Env, type DevnetPaymentsLike } from '@credit/x402/devnet-x402';
import { paymentsConfig } from '@credit/payments/config';
import { PaymentsModule } from '@credit/payments/payments.module';
import { natsAuthOf } from '@credit/rpc/nats-connection';
import { startService, type RunningService } from '@credit/rpc/start-service';

export interface PaymentsServiceOptions {
  natsUrl: string;
  prefix: string;
  redisUrl: string;
  databaseUrl: string;
  /** The devnet's payment chain (`state.payments`). */
  payments: DevnetPaymentsLike;
  env?: Record<string, string>;
}

/** The payments service in this process, with the self-hosted facilitator on the devnet's payment chain. */
export interface RunningPayments {
  service: RunningService;
  /** The x402 environment the gateway needs too (X402_PAY_TO, X402_NETWORKS_FILE). */
  gatewayEnv: Record<string, string>;
  close(): Promise<void>;
}

/** The x402 environment of the devnet (its networks file in a temporary directory), for a gateway and the service. */
export function devnetX402EnvFor(payments: DevnetPaymentsLike): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'credit-x402-'));
  return { env: devnetX402Env(payments, join(dir, 'x402-networks.json')), dir };
}

export async function startPaymentsService(options: PaymentsServiceOptions): Promise<RunningPayments> {
  const { env: x402, dir } = devnetX402EnvFor(options.payments);
  const config = paymentsConfig({
    ...x402,
    NATS_URL: options.natsUrl,
    NATS_SUBJECT_PREFIX: options.prefix,
    REDIS_URL: options.redisUrl,
    DATABASE_URL: options.databaseUrl,
    HEALTH_PORT: '0',
    ...options.env,
  });
  const service = await startService(PaymentsModule.forRoot(config), {
    service: 'payments',
    natsUrl: options.natsUrl,
    // NATS_USER / NATS_PASSWORD in `env`: the service's own user (infra/nats/auth.conf)
    natsAuth: natsAuthOf(config),
    subjectPrefix: options.prefix,
    healthPort: 0,
    silent: true,
  });
  const { X402_FACILITATOR_PRIVATE_KEYS: _signers, ...gatewayEnv } = x402;
  let closing: Promise<void> | undefined;
  return {
    service,
    gatewayEnv,
    close() {
      closing ??= service.close().finally(() => rmSync(dir, { recursive: true, force: true }));
      return closing;
    },
  };
}
