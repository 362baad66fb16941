import { Client } from 'pg';
import { createTestDatabase } from './test-database';

jest.setTimeout(60_000);

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

describe('createTestDatabase', () => {
  it('creates a uniquely named, migrated database and drops it, open connections and all', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    const name = new URL(first.url).pathname.slice(1);

    expect(name).toMatch(/^credit_test_[0-9a-f]+$/);
    expect(second.url).not.toBe(first.url);
    const tables = await query<{ t: string | null }>(first.url, `SELECT to_regclass('public.api_keys')::text AS t`);
    expect(tables).toEqual([{ t: 'api_keys' }]);

    // A connection left open by a test does not stop the drop.
    const leftOpen = new Client({ connectionString: first.url });
    leftOpen.on('error', () => undefined);
    await leftOpen.connect();

    await first.drop();
    await first.drop();
    await second.drop();

    const remaining = await query(ADMIN_URL, 'SELECT datname FROM pg_database WHERE datname = ANY($1)', [
      [name, new URL(second.url).pathname.slice(1)],
    ]);
    expect(remaining).toEqual([]);
    await leftOpen.end().catch(() => undefined);
  });
});
