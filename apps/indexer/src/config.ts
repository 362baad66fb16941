import { z } from 'zod';
import { ConfigError } from '@credit/config/load-config';
import { databaseEnv, healthEnv, logEnv, positiveInt, redisEnv } from '@credit/config/fragments';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { loadConfigWithChains } from '@credit/chain/config-with-chains';
import { parsePerChainSetting, settingFor, type PerChainSetting } from './per-chain-setting';

/** Confirmations when CONFIRMATIONS does not name the chain: a safe depth for Ethereum mainnet. */
export const DEFAULT_CONFIRMATIONS = 12;

const blankIsUnset = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const perChain = (fallback: number) =>
  z.preprocess(
    blankIsUnset,
    z
      .string()
      .default(String(fallback))
      .transform((text, ctx): PerChainSetting => {
        const parsed = parsePerChainSetting(text, fallback);
        if (typeof parsed === 'string') {
          ctx.addIssue({ code: 'custom', message: parsed });
          return z.NEVER;
        }
        return parsed;
      }),
  );

export const IndexerEnv = z.object({
  ...databaseEnv,
  ...redisEnv,
  ...healthEnv,
  ...logEnv,
  /** Blocks a block must be buried under before it is indexed: `<n>` or `<n>,<chainId>=<n>,…`. */
  CONFIRMATIONS: perChain(DEFAULT_CONFIRMATIONS),
  /** First block indexed on a chain without a checkpoint: `<n>` or per chain, like CONFIRMATIONS. */
  START_BLOCK: perChain(0),
  /** Blocks per range job. */
  RANGE_SIZE: positiveInt(100),
  /** Range jobs processed at once by this process (across chains). */
  CONCURRENCY: positiveInt(4),
  /** Blocks of one range read at once. */
  BLOCK_FETCH_CONCURRENCY: positiveInt(8),
  /** How often each chain's follower looks for new confirmed blocks. */
  POLL_INTERVAL_MS: positiveInt(2_000),
  /** Planned, unfinished ranges per chain at most (bounds the backlog in Redis and Postgres). */
  MAX_PENDING_RANGES: positiveInt(200),
  /** A job whose worker stops renewing its lock this long is taken over by another worker. */
  JOB_LOCK_MS: positiveInt(30_000),
  /** BullMQ key prefix: side-by-side stacks and test suites use their own. */
  QUEUE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, _ . -')
    .default('credit'),
});

export type IndexerEnvConfig = z.output<typeof IndexerEnv>;

export interface ChainSettings {
  confirmations: number;
  startBlock: bigint;
}

export interface IndexerConfig extends Omit<IndexerEnvConfig, 'CONFIRMATIONS' | 'START_BLOCK'> {
  chains: ChainRegistry;
  /** By chain id. */
  chainSettings: ReadonlyMap<number, ChainSettings>;
}

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError. */
export function indexerConfig(env: NodeJS.ProcessEnv = process.env): IndexerConfig {
  const { env: parsed, chains, problems } = loadConfigWithChains('indexer', IndexerEnv, env);
  if (parsed && chains) {
    const ids = new Set(chains.map((c) => c.id));
    for (const [name, setting] of [
      ['CONFIRMATIONS', parsed.CONFIRMATIONS],
      ['START_BLOCK', parsed.START_BLOCK],
    ] as const) {
      for (const id of setting.byChain.keys()) {
        if (!ids.has(id)) problems.push(`indexer: ${name} names chain ${id}, which is not configured`);
      }
    }
  }
  if (problems.length > 0 || !parsed || !chains) throw new ConfigError(problems.join('\n'));
  const { CONFIRMATIONS, START_BLOCK, ...rest } = parsed;
  const chainSettings = new Map(
    chains.map((c) => [c.id, { confirmations: settingFor(CONFIRMATIONS, c.id), startBlock: BigInt(settingFor(START_BLOCK, c.id)) }]),
  );
  return { ...rest, chains, chainSettings };
}
