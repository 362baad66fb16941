import { z } from 'zod';
import { loadConfig } from '@credit/config/load-config';
import { databaseEnv, httpEnv, logEnv, natsEnv, positiveInt } from '@credit/config/fragments';

export const GatewayEnv = z.object({
  ...httpEnv,
  ...natsEnv,
  ...databaseEnv,
  ...logEnv,
  /** How long a verified key stays in the in-process cache; revocations also arrive over NATS. */
  KEY_CACHE_TTL_MS: positiveInt(60_000),
  /** How long an unknown key hash is remembered as unknown (keys are random: it cannot appear later). */
  KEY_NEGATIVE_TTL_MS: positiveInt(300_000),
  KEY_CACHE_MAX: positiveInt(100_000),
  /** Unknown key hashes remembered (apart from the keys found, so a flood cannot evict those). */
  KEY_NEGATIVE_CACHE_MAX: positiveInt(100_000),
  /** Key lookups waiting on Postgres at once; beyond, an uncached key gets 503 at once. */
  KEY_LOOKUP_MAX_INFLIGHT: positiveInt(64),
  /** How often `last used` times are written to Postgres, in one statement. */
  LAST_USED_FLUSH_MS: positiveInt(5_000),
  /** Caps every subject's own reply timeout (contracts `timeoutMs`); unset keeps them as they are. */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  /** Largest JSON body accepted (413 beyond). */
  BODY_LIMIT_BYTES: positiveInt(64 * 1024),
  /**
   * How long a client may take to send a whole request, headers and body (408 beyond): a client
   * that stalls cannot hold a connection open. Not the time to answer (the NATS hop has its own).
   */
  REQUEST_TIMEOUT_MS: positiveInt(30_000),
  /** Postgres (key lookups): most time to open a connection or wait for a free one in the pool. */
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(2_000),
  /** Postgres (key lookups): most time a statement may take. */
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(5_000),
});
export type GatewayConfig = z.output<typeof GatewayEnv>;

export function gatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig('gateway', GatewayEnv, env);
}
