import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
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
   * The self-hosted facilitator's signers (0x + 64 hex each, comma-separated): they send the
   * settlement transactions and pay their gas, each with its own queue and nonce sequence. From the
   * environment only, never from a file in the repository.
   */
  X402_FACILITATOR_PRIVATE_KEYS: z.preprocess(blankIsUnset, z.string().optional()),
  /** One signer: the same as X402_FACILITATOR_PRIVATE_KEYS with one key. */
  X402_FACILITATOR_PRIVATE_KEY: z.preprocess(blankIsUnset, z.string().optional()),
  /** Most time one settlement (broadcast and receipt) may take before it is retried. */
  SETTLEMENT_TIMEOUT_MS: positiveInt(30_000),
  /**
   * Settlements of one signer under way at once, across every replica: checked and awaiting their
   * receipts side by side, their transactions sent one at a time in nonce order. On a chain with
   * 2-second blocks, one at a time would settle one payment a block per signer. 8: on the devnet
   * (a block per transaction) more at once only added receipt looks (docs/BENCHMARKS.md); at most
   * 16, the pending transactions a geth-based node keeps for one sender (`txpool.accountslots`).
   * With an external facilitator: its settle calls under way at once (it orders its own sends).
   */
  X402_SETTLEMENTS_PER_SIGNER: z.preprocess(blankIsUnset, z.coerce.number().int().positive().max(16).default(8)),
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
  /** The self-hosted facilitator's signer keys, checked (empty with an external facilitator). */
  facilitatorKeys: Hex[];
}

/** Reads and checks the configuration at boot: x402 needs where payments go and who verifies them. */
export function paymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  const parsed = loadConfig('payments', PaymentsEnv, env);
  const x402 = x402Settings(parsed);
  const problems: string[] = [];
  if (x402 === undefined) problems.push('payments: X402_PAY_TO is required (the address payments go to)');
  const keys = facilitatorKeysOf(parsed, problems);
  if (parsed.X402_FACILITATOR_URL === undefined && keys.length === 0) {
    problems.push(
      'payments: set X402_FACILITATOR_URL (an external facilitator) or X402_FACILITATOR_PRIVATE_KEYS / X402_FACILITATOR_PRIVATE_KEY (the self-hosted one)',
    );
  }
  // Every settlement is checked on chain (its own transfer in its receipt), the external facilitator's too.
  if (x402 !== undefined && !x402.networks.some((n) => n.rpcUrl !== undefined)) {
    problems.push('payments: payments are checked on chain: give at least one network an rpcUrl (X402_NETWORKS_FILE)');
  }
  if (problems.length > 0 || x402 === undefined) throw new ConfigError(problems.join('\n'));
  return { ...parsed, x402, facilitatorKeys: parsed.X402_FACILITATOR_URL === undefined ? keys : [] };
}

/**
 * The signer keys (X402_FACILITATOR_PRIVATE_KEYS, or the one X402_FACILITATOR_PRIVATE_KEY), each a
 * valid secp256k1 key and no two the same: two queues on one key would clash on its nonces. A
 * problem names the key by its position, never by its value.
 */
function facilitatorKeysOf(parsed: PaymentsEnvConfig, problems: string[]): Hex[] {
  const { X402_FACILITATOR_PRIVATE_KEYS: many, X402_FACILITATOR_PRIVATE_KEY: one } = parsed;
  if (many !== undefined && one !== undefined) {
    problems.push('payments: set X402_FACILITATOR_PRIVATE_KEYS or X402_FACILITATOR_PRIVATE_KEY, not both');
    return [];
  }
  const variable = many !== undefined ? 'X402_FACILITATOR_PRIVATE_KEYS' : 'X402_FACILITATOR_PRIVATE_KEY';
  const listed = (many ?? one ?? '').split(',').map((key) => key.trim());
  if (listed.length === 1 && listed[0] === '') return [];
  const keys: Hex[] = [];
  const addresses = new Set<string>();
  for (const [i, key] of listed.entries()) {
    const which = listed.length > 1 ? `key ${i + 1} of ${listed.length}` : 'the key';
    const wellFormed = /^0x[0-9a-fA-F]{64}$/.test(key);
    const address = wellFormed ? addressOf(key as Hex) : undefined;
    if (!wellFormed) problems.push(`payments: ${variable}: ${which} must be 0x and 64 hex digits`);
    else if (address === undefined) problems.push(`payments: ${variable}: ${which} is not a valid secp256k1 private key`);
    else if (addresses.has(address)) problems.push(`payments: ${variable}: ${which} repeats an earlier key (each signer needs its own)`);
    else {
      addresses.add(address);
      keys.push(key as Hex);
    }
  }
  return keys;
}

/** The key's address; undefined when it is no secp256k1 key (zero, or past the curve's order). */
function addressOf(key: Hex): string | undefined {
  try {
    return privateKeyToAccount(key).address;
  } catch {
    return undefined;
  }
}
