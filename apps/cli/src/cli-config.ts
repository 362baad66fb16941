import { loadConfig } from '@credit/config/load-config';
import { databaseEnv, natsEnv } from '@credit/config/fragments';
import { z } from 'zod';

const cliEnv = z.object({ ...databaseEnv, ...natsEnv });

export type CliConfig = z.output<typeof cliEnv>;

/** DATABASE_URL, NATS_URL and NATS_SUBJECT_PREFIX; throws ConfigError naming every problem. */
export function loadCliConfig(env: NodeJS.ProcessEnv): CliConfig {
  return loadConfig('cli', cliEnv, env);
}
