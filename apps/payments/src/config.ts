import { z } from 'zod';
import { ConfigError, loadConfig } from '@credit/config/load-config';
import { blankIsUnset, databaseEnv, healthEnv, logEnv, natsEnv, positiveInt, redisEnv, serviceLoadEnv } from '@credit/config/fragments';
import { x402Env, x402Settings, type X402Settings } from '@credit/x402/x402-settings';

export const PaymentsEnv = z.object({
  ...natsEnv,
  ...healthEnv,
  ...serviceLoadEnv,
  ...logEnv,
  ...redisEnv,
  ...databaseEnv,
  ...x402Env,
  /** An external x402 facilitator (`/verify`, `/settle`); unset: the facilitator code runs here. */
  X402_FACILITATOR_URL: z.preprocess(blankIsUnset, z.string().url().optional()),
  /**
   * The self-hosted facilitator's signer (0x + 64 hex): it sends the settlement transactions and
   * pays their gas. From the environment only, never from a file in the repository.
   */
  X402_FACILITATOR_PRIVATE_KEY: z.preprocess(
    blankIsUnset,
    z
      .string()
      .trim()
      .regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x and 64 hex digits')
      .optional(),
  ),
  /** Most time one settlement (broadcast and receipt) may take before it is retried. */
  SETTLEMENT_TIMEOUT_MS: positiveInt(30_000),
  /** Most time a chain read of the verification may take. */
  X402_RPC_TIMEOUT_MS: positiveInt(10_000),
  /** How often reserved payments whose request stopped waiting (its deadline, plus one settle wait) are closed. */
  PAYMENT_SWEEP_MS: positiveInt(60_000),
  /**
   * How long a paid request's answer is kept: within it, the same payment sent again (after a
   * timeout, a dropped connection) gets that answer instead of `payment_already_used`.
   */
  X402_ANSWER_TTL_S: positiveInt(600),
});

export type PaymentsEnvConfig = z.output<typeof PaymentsEnv>;

export interface PaymentsConfig extends PaymentsEnvConfig {
  x402: X402Settings;
}

/** Reads and checks the configuration at boot: x402 needs where payments go and who verifies them. */
export function paymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const parsed = loadConfig('payments', PaymentsEnv, env);
  const x402 = x402Settings(parsed);
  const problems: string[] = [];
  if (x402 === undefined) problems.push('payments: X402_PAY_TO is required (the address payments go to)');
  if (parsed.X402_FACILITATOR_URL === undefined && parsed.X402_FACILITATOR_PRIVATE_KEY === undefined) {
    problems.push('payments: set X402_FACILITATOR_URL (an external facilitator) or X402_FACILITATOR_PRIVATE_KEY (the self-hosted one)');
  }
  // Every settlement is checked on chain (its own transfer in its receipt), the external facilitator's too.
  if (x402 !== undefined && !x402.networks.some((n) => n.rpcUrl !== undefined)) {
    problems.push('payments: payments are checked on chain: give at least one network an rpcUrl (X402_NETWORKS_FILE)');
  }
  if (problems.length > 0 || x402 === undefined) throw new ConfigError(problems.join('\n'));
  return { ...parsed, x402 };
}
