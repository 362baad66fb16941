import { poolOf, type Db } from './prisma-client';

/**
 * The rows of a read-only statement, straight through the node-postgres pool under `db` (the
 * wallet reading's index queries: through Prisma, a one-address query costs this process about
 * twice the CPU, `pnpm bench:index-queries`, docs/BENCHMARKS.md). A client whose pool was closed
 * (`$disconnect()`) is asked through Prisma, which connects again, as its own queries do. The two
 * ways differ in one type: an `int8` column comes back as a string from the pool and as a bigint
 * from Prisma, so a caller reads it with `BigInt(…)`, which takes both.
 */
export async function rawRows<T>(db: Db, sql: string, params: readonly unknown[]): Promise<T[]> {
  const pool = poolOf(db);
  if (pool === undefined) return db.$queryRawUnsafe<T[]>(sql, ...params);
  return (await pool.query(sql, [...params])).rows as T[];
}
