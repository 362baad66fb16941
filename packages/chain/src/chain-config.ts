import { readFileSync } from 'node:fs';
import { getAddress, isAddress, type Address } from 'viem';
import { z } from 'zod';
import { ConfigError } from '@credit/config/load-config';

/**
 * The chain registry: every chain the platform reads, with its RPC endpoint and the contracts
 * whose data it serves (tokens, USD price feeds, lending pools, ENS, multicall3). It is pure
 * configuration (docs/ARCHITECTURE.md, "Design outline"): pointing it at public endpoints and
 * mainnet addresses is all it takes to run against real chains; the devnet builds one from its
 * state file.
 */

/** Where Multicall3 lives on almost every EVM chain. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';
/** Calls per aggregate3 before a read is split into several eth_calls. */
export const DEFAULT_MAX_CALLS_PER_MULTICALL = 1000;
/**
 * A feed answer older than this (against the block's timestamp) is flagged stale. Chainlink's
 * slowest USD heartbeats are 24 h; one more hour of grace.
 */
export const DEFAULT_PRICE_MAX_AGE_SECONDS = 25 * 60 * 60;

/** A 20-byte hex address carrying its EIP-55 checksum (the error names the checksummed form). */
const checksummedAddress = z
  .string()
  .trim()
  .transform((value, ctx): Address => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: `not a 20-byte hex address: "${value}"` });
      return z.NEVER;
    }
    if (!isAddress(value, { strict: true }) || value !== getAddress(value)) {
      ctx.addIssue({ code: 'custom', message: `address must be EIP-55 checksummed: "${value}" (use "${getAddress(value)}")` });
      return z.NEVER;
    }
    return value as Address;
  });

const RPC_PROTOCOLS = ['http:', 'https:', 'ws:', 'wss:'];
const rpcUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return RPC_PROTOCOLS.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s):// or ws(s):// URL');

const tokenConfigSchema = z.object({
  symbol: z.string().trim().min(1),
  name: z.string().trim().min(1),
  address: checksummedAddress,
  decimals: z.number().int().min(0).max(36),
  /** AggregatorV3 feed of the token's USD price. */
  priceFeed: checksummedAddress,
  /** Overrides the chain's `priceMaxAgeSeconds` for this token's feed. */
  priceMaxAgeSeconds: z.number().int().positive().optional(),
});

const lendingPoolConfigSchema = z.object({
  name: z.string().trim().min(1),
  /** An Aave-V3-compatible pool (`getUserAccountData`; base currency USD, 8 decimals). */
  address: checksummedAddress,
});

const ensConfigSchema = z.object({
  registry: checksummedAddress.optional(),
  universalResolver: checksummedAddress,
  /**
   * The .eth registrar controller whose NameRegistered events carry the labels; with `registry`,
   * the indexer records who owns which names.
   */
  registrarController: checksummedAddress.optional(),
});

export const chainConfigSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().trim().min(1),
    rpcUrl,
    nativeSymbol: z.string().trim().min(1),
    /** Defaults to the symbol. */
    nativeName: z.string().trim().min(1).optional(),
    /** AggregatorV3 feed of the native coin's USD price (8 decimals on Chainlink's USD feeds). */
    nativePriceFeed: checksummedAddress,
    tokens: z.array(tokenConfigSchema).default([]),
    lendingPools: z.array(lendingPoolConfigSchema).default([]),
    ens: ensConfigSchema.optional(),
    multicall3: checksummedAddress.default(MULTICALL3_ADDRESS),
    maxCallsPerMulticall: z.number().int().min(2).default(DEFAULT_MAX_CALLS_PER_MULTICALL),
    priceMaxAgeSeconds: z.number().int().positive().default(DEFAULT_PRICE_MAX_AGE_SECONDS),
  })
  .superRefine((chain, ctx) => {
    const seen = new Map<string, number>();
    chain.tokens.forEach((token, i) => {
      for (const [key, label] of [
        [token.symbol.toUpperCase(), 'symbol'],
        [token.address, 'address'],
      ] as const) {
        const first = seen.get(`${label}:${key}`);
        if (first !== undefined) {
          ctx.addIssue({ code: 'custom', path: ['tokens', i, label], message: `duplicate token ${label} (also tokens.${first})` });
        } else seen.set(`${label}:${key}`, i);
      }
      if (token.symbol.toUpperCase() === chain.nativeSymbol.toUpperCase()) {
        ctx.addIssue({
          code: 'custom',
          path: ['tokens', i, 'symbol'],
          message: `token symbol equals the native symbol ${chain.nativeSymbol}`,
        });
      }
    });
    const pools = new Set<string>();
    chain.lendingPools.forEach((pool, i) => {
      if (pools.has(pool.address))
        ctx.addIssue({ code: 'custom', path: ['lendingPools', i, 'address'], message: 'duplicate lending pool' });
      pools.add(pool.address);
    });
  });

const chainRegistrySchema = z
  .array(chainConfigSchema)
  .min(1, 'at least one chain')
  .superRefine((chains, ctx) => {
    const ids = new Map<number, number>();
    chains.forEach((chain, i) => {
      const first = ids.get(chain.id);
      if (first !== undefined)
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate chain id ${chain.id} (also [${first}])` });
      else ids.set(chain.id, i);
    });
  });

export type LendingPoolConfig = z.output<typeof lendingPoolConfigSchema>;
export type ChainConfig = z.output<typeof chainConfigSchema>;
/** What a config file or the `CHAINS` variable holds (defaults not applied yet). */
export type ChainConfigInput = z.input<typeof chainConfigSchema>;
export type ChainRegistry = readonly ChainConfig[];

/** Validates a parsed registry; every problem is named in one ConfigError. */
export function parseChainRegistry(value: unknown, source = 'chain registry'): ChainRegistry {
  const result = chainRegistrySchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${describePath(value, issue.path)}: ${issue.message}`).join('\n');
  throw new ConfigError(`${source}: invalid chain registry\n${problems}`);
}

/** `[0].tokens[1].address` plus the chain's id when it is readable, so the message points home. */
function describePath(value: unknown, path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(registry)';
  let text = '';
  for (const key of path) text += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  const first = path[0];
  const chain = Array.isArray(value) && typeof first === 'number' ? (value[first] as { id?: unknown } | undefined) : undefined;
  return chain && typeof chain.id === 'number' ? `${text} (chain ${chain.id})` : text;
}

/** Parses JSON text as a registry; a syntax error is a ConfigError naming the source. */
function parseChainRegistryJson(text: string, source: string): ChainRegistry {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${source}: not valid JSON (${(error as Error).message})`);
  }
  return parseChainRegistry(value, source);
}

/**
 * The registry from the environment, at boot: `CHAINS` (JSON text) or `CHAINS_FILE` (path to a
 * JSON file). Both set, or neither, is an error; so is anything the schema rejects.
 */
export function loadChainRegistry(env: NodeJS.ProcessEnv = process.env): ChainRegistry {
  const inline = env.CHAINS?.trim();
  const file = env.CHAINS_FILE?.trim();
  if (inline && file) throw new ConfigError('CHAINS and CHAINS_FILE are both set; set one');
  if (inline) return parseChainRegistryJson(inline, 'CHAINS');
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(`CHAINS_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    return parseChainRegistryJson(text, `CHAINS_FILE ${file}`);
  }
  throw new ConfigError('no chains configured: set CHAINS (JSON) or CHAINS_FILE (path to JSON)');
}
