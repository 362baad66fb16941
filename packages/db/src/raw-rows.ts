import { poolOf, type Db } from './prisma-client';

/**
 * The rows of a read-only statement, straight through the node-postgres pool under `db` (the
 * wallet reading's index queries: through Prisma, a one-address query costs this process about
 * twice the CPU, `pnpm bench:index-queries`, docs/BENCHMARKS.md). node-postgres's types: an `int8` column comes
 * back as a string (read it with `BigInt(…)`), `int4` as a number, `timestamptz` as a Date.
 */
export async function rawRows<T>(db: Db, sql: string, params: readonly unknown[]): Promise<T[]> {
  const pool = poolOf(db);
  if (pool === undefined) throw new Error('the database client is closed');
  return (await pool.query(sql, [...params])).rows as T[];
}
