import { randomBytes } from 'node:crypto';
import { migrate } from '@credit/db/migrate';
import { Client } from 'pg';

export interface TestDatabase {
  /** Connection URL of the new, migrated database. */
  url: string;
  /** Ends every connection to the database and drops it. Safe to call more than once. */
  drop(): Promise<void>;
}

const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh database `credit_test_<random>` with every migration applied, on the server of
 * `TEST_DATABASE_ADMIN_URL` (default: the local Postgres as `postgres`). Tests get their own
 * database, so they never touch a developer's stack or each other.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? DEFAULT_ADMIN_URL;
  const name = `credit_test_${randomBytes(8).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();

  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  let dropped = false;
  const drop = async (): Promise<void> => {
    if (dropped) return;
    dropped = true;
    await withAdmin(adminUrl, async (admin) => {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    });
  };

  try {
    await migrate(databaseUrl);
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
  return { url: databaseUrl, drop };
}

async function withAdmin<T>(adminUrl: string, fn: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl, application_name: 'credit-test-database' });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}
