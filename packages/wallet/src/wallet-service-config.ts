import { z } from 'zod';
import { ConfigError } from '@credit/config/load-config';
import { healthEnv, logEnv, natsEnv, serviceLoadEnv } from '@credit/config/fragments';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { loadConfigWithChains } from '@credit/chain/config-with-chains';
import { walletReadEnv } from './wallet-read-env';

/** The environment of a NATS service that reads wallets (scoring, reports). */
export const WalletServiceEnv = z.object({
  ...natsEnv,
  ...healthEnv,
  ...serviceLoadEnv,
  ...logEnv,
  /** Postgres (the indexer's tables), Redis (the wallet cache), the index lag bound, chain timeouts. */
  ...walletReadEnv,
});

export type WalletServiceEnvConfig = z.output<typeof WalletServiceEnv>;

/** Such a service's configuration: the environment plus the chain registry it reads. */
export interface WalletServiceConfig extends WalletServiceEnvConfig {
  /** The chains a wallet is read on (`CHAINS` / `CHAINS_FILE`); every one of them is read. */
  chains: ChainRegistry;
}

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError naming `app`. */
export function walletServiceConfig(app: string, env: NodeJS.ProcessEnv): WalletServiceConfig {
  const { env: parsed, chains, problems } = loadConfigWithChains(app, WalletServiceEnv, env);
  if (problems.length > 0 || !parsed || !chains) throw new ConfigError(problems.join('\n'));
  return { ...parsed, chains };
}
