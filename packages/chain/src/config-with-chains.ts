import type { z } from 'zod';
import { ConfigError, loadConfig } from '@credit/config/load-config';
import { loadChainRegistry, type ChainRegistry } from './chain-config';

export interface ConfigWithChains<T> {
  /** The app's own settings; undefined when they did not parse. */
  env: T | undefined;
  /** The chain registry (`CHAINS` / `CHAINS_FILE`); undefined when it did not load. */
  chains: ChainRegistry | undefined;
  /** Every problem found in either, so a boot failure names them all at once. */
  problems: string[];
}

/**
 * The boot-time reading of an app that reads chains: its environment schema AND the chain
 * registry, each checked, with every problem of both collected (the caller adds its own
 * cross-checks, then throws one ConfigError if any problem is left).
 */
export function loadConfigWithChains<S extends z.ZodType>(app: string, schema: S, env: NodeJS.ProcessEnv): ConfigWithChains<z.output<S>> {
  const problems: string[] = [];
  let parsed: z.output<S> | undefined;
  let chains: ChainRegistry | undefined;
  try {
    parsed = loadConfig(app, schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error.message);
  }
  try {
    chains = loadChainRegistry(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(`${app}: ${error.message}`);
  }
  return { env: parsed, chains, problems };
}
