import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Databases for this package's own tests (`@credit/testing` builds on this package, so it cannot
 * be used here). Each name is unique, so test files and developers' stacks never collide.
 */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The URL of a database that does not exist yet. */
export function freshDatabaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/credit_dbtest_${randomBytes(6).toString('hex')}`;
  return url.toString();
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
  } finally {
    await admin.end();
  }
}

/** Runs `fn` with a client connected to `databaseUrl`. */
export async function withClient<T>(databaseUrl: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
