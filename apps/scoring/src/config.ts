import { walletServiceConfig, type WalletServiceConfig } from '@credit/wallet/wallet-service-config';

/**
 * The scoring service's configuration: NATS, health, load limit and log settings, the wallet reading
 * (Postgres, the wallet cache's Redis, the index lag bound, chain timeouts) and the chain registry.
 */
export type ScoringConfig = WalletServiceConfig;

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError. */
export function scoringConfig(env: NodeJS.ProcessEnv = process.env): ScoringConfig {
  return walletServiceConfig('scoring', env);
}
