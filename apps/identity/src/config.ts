import { z } from 'zod';
import { ConfigError } from '@credit/config/load-config';
import {
  blankIsUnset,
  cacheRedisEnv,
  databaseEnv,
  healthEnv,
  logEnv,
  natsEnv,
  optionalUrl,
  positiveInt,
  redisEnv,
  serviceLoadEnv,
} from '@credit/config/fragments';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { loadConfigWithChains } from '@credit/chain/config-with-chains';

const optionalText = z.preprocess(blankIsUnset, z.string().trim().optional());

export const IdentityEnv = z.object({
  ...natsEnv,
  ...healthEnv,
  ...serviceLoadEnv,
  ...logEnv,
  ...redisEnv,
  /** The identity cache's own evicting Redis (`CACHE_REDIS_URL`). */
  ...cacheRedisEnv,
  /** The indexer's Postgres: the name service's events (who owns which names). */
  ...databaseEnv,
  /**
   * How much history (seconds) the name index may be missing beyond its confirmation depth before
   * owned names are refused (the ENS source fails): as wallet readings judge the activity index.
   */
  INDEX_MAX_LAG_SECONDS: positiveInt(600),
  /** docs/API.md §4.3: 5 minutes per address. */
  IDENTITY_CACHE_TTL_SECONDS: positiveInt(300),
  /** A lookup that some source failed is cached this long only, so the source is asked again soon. */
  IDENTITY_INCOMPLETE_CACHE_TTL_SECONDS: positiveInt(30),
  /** Each source's own time limit; a later answer is left out of the reply. */
  IDENTITY_SOURCE_TIMEOUT_MS: positiveInt(2_500),
  CHAIN_RPC_TIMEOUT_MS: positiveInt(2_000),
  /** Human Passport API v2 (`/v2/stamps/{scorer_id}/score/{address}`): all three, or the source is off. */
  PASSPORT_API_URL: optionalUrl,
  PASSPORT_API_KEY: optionalText,
  PASSPORT_SCORER_ID: optionalText,
  /** POAP's API (`/actions/scan/{address}`). */
  POAP_API_URL: optionalUrl,
  POAP_API_KEY: optionalText,
  /** Neynar's Farcaster API (`/v2/farcaster/user/bulk-by-address`). */
  NEYNAR_API_URL: optionalUrl,
  NEYNAR_API_KEY: optionalText,
  /** Lens's GraphQL API (v3, `accountsAvailable`). */
  LENS_API_URL: optionalUrl,
  LENS_API_KEY: optionalText,
});

export type IdentityEnvConfig = z.output<typeof IdentityEnv>;

/** The identity service's configuration: the environment plus the chain registry (ENS lives on one of its chains). */
export interface IdentityConfig extends IdentityEnvConfig {
  chains: ChainRegistry;
}

/** A provider is configured by all of its settings or none: half a configuration is a boot error. */
const PROVIDER_SETTINGS: Record<string, readonly (keyof IdentityEnvConfig)[]> = {
  passport: ['PASSPORT_API_URL', 'PASSPORT_API_KEY', 'PASSPORT_SCORER_ID'],
  poap: ['POAP_API_URL', 'POAP_API_KEY'],
  farcaster: ['NEYNAR_API_URL', 'NEYNAR_API_KEY'],
  lens: ['LENS_API_URL'],
};

/** Reads and checks the whole configuration at boot; every problem is reported in one ConfigError. */
export function identityConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  const { env: parsed, chains, problems } = loadConfigWithChains('identity', IdentityEnv, env);
  if (parsed) {
    for (const [provider, keys] of Object.entries(PROVIDER_SETTINGS)) {
      const set = keys.filter((k) => parsed[k] !== undefined);
      if (set.length > 0 && set.length < keys.length) {
        problems.push(
          `identity: ${provider} needs ${keys.join(', ')} together (missing ${keys.filter((k) => !set.includes(k)).join(', ')})`,
        );
      }
    }
  }
  if (problems.length > 0 || !parsed || !chains) throw new ConfigError(problems.join('\n'));
  return { ...parsed, chains };
}
