import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from './generated/client';
import { traceQueries } from './traced-pool';

/** The database handle the repositories take. Only this package looks inside it. */
export type Db = PrismaClient;

export interface PrismaClientOptions {
  /** Most connections the pool opens (pg's default, 10, when unset). */
  maxConnections?: number;
  /** Shown in `pg_stat_activity.application_name`. */
  applicationName?: string;
  /** Most time to open a connection, or to wait for a free one in a full pool (no limit when unset). */
  connectTimeoutMs?: number;
  /**
   * Most time a statement may take (no limit when unset): Postgres cancels it then
   * (`statement_timeout`, the connection stays usable), and the client gives up one second later
   * if the server does not answer at all (`query_timeout`; the pool drops that connection).
   */
  statementTimeoutMs?: number;
}

/** How long after the server's own statement timeout the client stops waiting for an answer. */
const CLIENT_GRACE_MS = 1_000;

/**
 * A Prisma client over node-postgres (driver adapter: no native query engine). It connects
 * lazily; call `$disconnect()` when done so the pool closes and the process can exit. Timeouts
 * are each app's choice (the gateway's key lookups: 2 s / 5 s); unset, a call waits as long as
 * Postgres takes, which the indexer's bulk writes may need.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): Db {
  const pool = new Pool({
    connectionString: databaseUrl,
    // `rawRows`' prepared statements are planned for each call's values, as unnamed ones are
    options: '-c plan_cache_mode=force_custom_plan',
    ...(options.maxConnections !== undefined ? { max: options.maxConnections } : {}),
    ...(options.applicationName !== undefined ? { application_name: options.applicationName } : {}),
    ...(options.connectTimeoutMs !== undefined ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    ...(options.statementTimeoutMs !== undefined
      ? { statement_timeout: options.statementTimeoutMs, query_timeout: options.statementTimeoutMs + CLIENT_GRACE_MS }
      : {}),
  });
  traceQueries(pool);
  // An idle connection Postgres ends (a restart, a failover) is replaced on next use; unheard, its
  // error would end the process.
  pool.on('error', () => undefined);
  // `$disconnect()` ends the pool, as when the adapter makes its own
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

const pools = new WeakMap<Db, Pool>();

/**
 * Closes a client `createPrismaClient` made and its pool: `$disconnect()` ends the pool only once
 * Prisma itself has connected, and a gateway that only wrote the ledger through `poolOf` never has.
 */
export async function closePrismaClient(db: Db): Promise<void> {
  await db.$disconnect();
  const pool = pools.get(db);
  if (pool !== undefined && !pool.ending && !pool.ended) await pool.end();
}

/**
 * The node-postgres pool under a client `createPrismaClient` made, while it is open: for the few
 * bulk statements whose one large parameter costs more in Prisma's handling than in Postgres (the
 * ledger's batch: ~3 µs a row through `$executeRaw`, ~1 µs through the pool;
 * docs/benchmarks/2026-11-24.md). Only repositories use it; undefined after `$disconnect()`.
 */
export function poolOf(db: Db): Pool | undefined {
  const pool = pools.get(db);
  return pool === undefined || pool.ending || pool.ended ? undefined : pool;
}
