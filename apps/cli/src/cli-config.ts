import { loadConfig } from '@credit/config/load-config';
import { databaseEnv, natsEnv, redisEnv } from '@credit/config/fragments';
import { z } from 'zod';

const cliEnv = z.object({ ...databaseEnv, ...natsEnv, ...redisEnv });

export type CliConfig = z.output<typeof cliEnv>;

/**
 * DATABASE_URL, NATS_URL, NATS_SUBJECT_PREFIX and REDIS_URL (the metering's counters, read by
 * accounts:show); throws ConfigError naming every problem.
 */
export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  return loadConfig('cli', cliEnv, env);
}
