import { createHash } from 'node:crypto';
import { poolOf, type Db } from './prisma-client';

/** Distinct statement texts kept as prepared statements; a text beyond them is sent unnamed. */
const PREPARED_KEPT = 256;
const statementNames = new Map<string, string>();

/**
 * The rows of a statement, straight through the node-postgres pool under `db` (the wallet
 * reading's index queries, the payments repository: through Prisma, a one-address query costs
 * this process about twice the CPU, `pnpm bench:index-queries`, docs/BENCHMARKS.md).
 *
 * Each text is a named prepared statement, parsed once per connection: Postgres then skips
 * parsing and analysing it again (a cold single score's Postgres CPU fell by 14 %,
 * `pnpm bench:cold-cpu`). It is still planned for each call's parameters
 * (`plan_cache_mode = force_custom_plan` on every connection, `createPrismaClient`), so a plan is
 * the one `EXPLAIN` shows with those values.
 *
 * A client whose pool was closed (`$disconnect()`) is asked through Prisma, which connects again,
 * as its own queries do. The two ways differ in one type: an `int8` column comes back as a string
 * from the pool and as a bigint from Prisma, so a caller reads it with `BigInt(…)`, which takes
 * both.
 */
export async function rawRows<T>(db: Db, sql: string, params: readonly unknown[]): Promise<T[]> {
  const pool = poolOf(db);
  if (pool === undefined) return db.$queryRawUnsafe<T[]>(sql, ...params);
  return (await pool.query({ name: statementName(sql), text: sql, values: [...params] })).rows as T[];
}

/** The prepared statement's name for a text (its hash), or undefined (unnamed) once PREPARED_KEPT texts have names. */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < PREPARED_KEPT) {
    name = `raw_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    statementNames.set(sql, name);
  }
  return name;
}
