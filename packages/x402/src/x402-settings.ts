import { readFileSync } from 'node:fs';
import { getAddress, isAddress, type Address } from 'viem';
import { z } from 'zod';
import { blankIsUnset } from '@credit/config/fragments';
import { ConfigError } from '@credit/config/load-config';
import { PAYMENT_NETWORKS, type PaymentNetwork } from '@credit/contracts/payment-networks';

const address = z
  .string()
  .trim()
  .refine((v) => isAddress(v, { strict: false }), 'must be a 20-byte hex address')
  .transform((v) => getAddress(v));

/** The environment every x402 party reads (the gateway and the payments service). */
export const x402Env = {
  /** Where payments go. Unset: x402 is off, and a request without a key gets 401. */
  X402_PAY_TO: z.preprocess(blankIsUnset, address.optional()),
  /**
   * A JSON file of per-network settings over the built-in table (docs/API.md §5): `[{network,
   * asset?, tokenName?, tokenVersion?, decimals?, rpcUrl?}]`. The devnet writes one that points
   * `eip155:84532` at its own token and chain.
   */
  X402_NETWORKS_FILE: z.preprocess(blankIsUnset, z.string().trim().optional()),
  /** Comma-separated CAIP-2 networks to offer (default: all four). */
  X402_OFFERED_NETWORKS: z.preprocess(blankIsUnset, z.string().trim().optional()),
};

const NetworkOverride = z.object({
  network: z.enum(PAYMENT_NETWORKS.map((n) => n.network) as [string, ...string[]]),
  asset: address.optional(),
  tokenName: z.string().min(1).optional(),
  tokenVersion: z.string().min(1).optional(),
  decimals: z.number().int().min(0).max(36).optional(),
  /** The chain's JSON-RPC endpoint: the self-hosted facilitator verifies and settles on this network only with one. */
  rpcUrl: z.string().url().optional(),
});

export interface X402Network extends Omit<PaymentNetwork, 'asset'> {
  readonly asset: Address;
  readonly rpcUrl?: string;
}

export interface X402Settings {
  payTo: Address;
  /** Offered in this order (the first is the one docs/API.md §2.11's option names). */
  networks: readonly X402Network[];
}

export type X402EnvConfig = { X402_PAY_TO?: Address; X402_NETWORKS_FILE?: string; X402_OFFERED_NETWORKS?: string };

/** The x402 settings, or undefined when x402 is off (no `X402_PAY_TO`). Problems are a ConfigError. */
export function x402Settings(env: X402EnvConfig): X402Settings | undefined {
  if (env.X402_PAY_TO === undefined) return undefined;
  const overrides = new Map<string, z.output<typeof NetworkOverride>>();
  if (env.X402_NETWORKS_FILE !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(env.X402_NETWORKS_FILE, 'utf8'));
    } catch (error) {
      throw new ConfigError(`X402_NETWORKS_FILE: cannot read ${env.X402_NETWORKS_FILE}: ${(error as Error).message}`);
    }
    const parsed = z.array(NetworkOverride).safeParse(raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new ConfigError(`X402_NETWORKS_FILE (${env.X402_NETWORKS_FILE}): ${problems}`);
    }
    for (const o of parsed.data) overrides.set(o.network, o);
  }
  const offered = env.X402_OFFERED_NETWORKS?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = offered?.filter((n) => !PAYMENT_NETWORKS.some((p) => p.network === n)) ?? [];
  if (unknown.length > 0) throw new ConfigError(`X402_OFFERED_NETWORKS: unknown network(s) ${unknown.join(', ')}`);
  if (offered !== undefined && offered.length === 0) throw new ConfigError('X402_OFFERED_NETWORKS: names no network');
  const networks = PAYMENT_NETWORKS.filter((n) => offered === undefined || offered.includes(n.network)).map((n): X402Network => {
    const o = overrides.get(n.network);
    return {
      ...n,
      asset: o?.asset ?? getAddress(n.asset),
      tokenName: o?.tokenName ?? n.tokenName,
      tokenVersion: o?.tokenVersion ?? n.tokenVersion,
      decimals: o?.decimals ?? n.decimals,
      ...(o?.rpcUrl !== undefined ? { rpcUrl: o.rpcUrl } : {}),
    };
  });
  return { payTo: env.X402_PAY_TO, networks };
}
