import { walletServiceConfig, type WalletServiceConfig } from '@credit/wallet/wallet-service-config';

/**
 * The reports service's configuration: NATS, health, load limit and log settings, the wallet reading
 * (Postgres, the wallet cache's Redis, the index lag bound, chain timeouts) and the chain registry.
 */
export type ReportsConfig = WalletServiceConfig;

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError. */
export function reportsConfig(env: NodeJS.ProcessEnv = process.env): ReportsConfig {
  return walletServiceConfig('reports', env);
}
