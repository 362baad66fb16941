import { ConfigError, loadConfig } from '@credit/config/load-config';
import { databaseEnv } from '@credit/config/fragments';
import { z } from 'zod';
import { migrate } from './migrate';

/** `pnpm db:migrate`: applies pending migrations to DATABASE_URL and says which. */
async function main(): Promise<void> {
  const config = loadConfig('db:migrate', z.object({ ...databaseEnv }));
  const target = describeTarget(config.DATABASE_URL);
  const { applied } = await migrate(config.DATABASE_URL);
  if (applied.length === 0) {
    process.stdout.write(`${target}: up to date, no migration applied\n`);
  } else {
    process.stdout.write(`${target}: applied ${applied.length} migration(s)\n`);
    for (const name of applied) process.stdout.write(`  ${name}\n`);
  }
}

/** host/database without credentials, for the log line. */
function describeTarget(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.host}${url.pathname}`;
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(error instanceof ConfigError ? `${message}\n` : `db:migrate failed: ${message}\n`);
  process.exitCode = 1;
});
