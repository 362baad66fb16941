import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, type ClientConfig } from 'pg';

/**
 * Applies the SQL migrations under `prisma/migrations` (the Prisma CLI's engine cannot be
 * downloaded on these machines, so `prisma migrate deploy` is not available):
 *
 * - creates the database when it does not exist yet;
 * - serialises concurrent runs with the advisory lock `prisma migrate deploy` takes, so this runner
 *   and Prisma's never migrate the same database at once;
 * - records every migration in `_prisma_migrations`, with Prisma's own columns and checksums
 *   (SHA-256 hex of `migration.sql`), so Prisma's tools read the history as their own;
 * - applies each pending migration in name order, in its own transaction;
 * - refuses to run when an applied migration's file has changed, or a migration is recorded as
 *   failed (left behind by another tool), naming it.
 *
 * A second run applies nothing.
 */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const migrations = readMigrations(migrationsDir);
  const client = await connectCreatingDatabase(databaseUrl);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK_KEY]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const pending = await pendingMigrations(client, migrations);
      const applied: string[] = [];
      for (const migration of pending) {
        await applyMigration(client, migration);
        applied.push(migration.name);
      }
      return { applied };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

export interface MigrateOptions {
  /** Folder of `<timestamp>_<name>/migration.sql` directories; defaults to this package's. */
  migrationsDir?: string;
}

export interface MigrateResult {
  /** Names of the migrations this run applied, in order (empty when the database was current). */
  applied: string[];
}

/** A migration history this runner will not build on; the message says what to do. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

/** `prisma/migrations` of this package, from `src/` (tests) and from `dist/` alike. */
export const MIGRATIONS_DIR = path.resolve(__dirname, '..', 'prisma', 'migrations');

/** The key `prisma migrate deploy` locks on PostgreSQL. */
const ADVISORY_LOCK_KEY = 72707369;

/** Prisma's own definition of its history table. */
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Migrations found in `dir`, ordered by folder name (the timestamp prefix), as Prisma orders them. */
export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  if (!existsSync(dir)) {
    throw new MigrationError(`migrations folder not found: ${dir}`);
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = path.join(dir, name, 'migration.sql');
      if (!existsSync(file)) {
        throw new MigrationError(`migration ${name} has no migration.sql (${file})`);
      }
      const bytes = readFileSync(file);
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

/**
 * Connects to the target database, creating it first (from the server's `postgres` database)
 * when the server says it does not exist.
 */
async function connectCreatingDatabase(databaseUrl: string): Promise<Client> {
  const target = new Client(clientConfig(databaseUrl));
  try {
    await target.connect();
    return target;
  } catch (error) {
    await target.end().catch(() => undefined);
    if (pgCode(error) !== INVALID_CATALOG_NAME) throw error;
  }
  await createDatabase(databaseUrl);
  const created = new Client(clientConfig(databaseUrl));
  await created.connect();
  return created;
}

async function createDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  const maintenanceUrl = new URL(databaseUrl);
  maintenanceUrl.pathname = '/postgres';
  const admin = new Client(clientConfig(maintenanceUrl.toString()));
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
  } catch (error) {
    // Another process created it in the meantime: that is what we wanted.
    const code = pgCode(error);
    if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
  } finally {
    await admin.end();
  }
}

async function pendingMigrations(client: Client, migrations: Migration[]): Promise<Migration[]> {
  const { rows } = await client.query<{
    migration_name: string;
    checksum: string;
    finished_at: Date | null;
    rolled_back_at: Date | null;
  }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at');

  const failed = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (failed.length > 0) {
    const names = failed.map((row) => row.migration_name).join(', ');
    throw new MigrationError(
      `the database records failed migration(s): ${names}. Repair the database by hand, then mark ` +
        `each one rolled back (set rolled_back_at in "_prisma_migrations") before migrating again.`,
    );
  }

  const applied = new Map<string, string>();
  for (const row of rows) {
    if (row.finished_at !== null && row.rolled_back_at === null) applied.set(row.migration_name, row.checksum);
  }

  for (const migration of migrations) {
    const checksum = applied.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationError(
        `migration ${migration.name} was changed after it was applied (checksum ${checksum} in the ` +
          `database, ${migration.checksum} on disk). Applied migrations are immutable: restore the ` +
          `file and put the change in a new migration.`,
      );
    }
  }
  return migrations.filter((migration) => !applied.has(migration.name));
}

async function applyMigration(client: Client, migration: Migration): Promise<void> {
  await client.query('BEGIN');
  try {
    const id = randomUUID();
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    // No parameters: the simple query protocol runs every statement of the file.
    await client.query(migration.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`migration ${migration.name} failed and was rolled back: ${reason}`, { cause: error });
  }
}

function clientConfig(databaseUrl: string): ClientConfig {
  return { connectionString: databaseUrl, application_name: 'credit-migrate' };
}

/** The database a URL names (its path without the leading slash). */
export function databaseName(databaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new MigrationError('DATABASE_URL is not a valid URL');
  }
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (name === '') throw new MigrationError('DATABASE_URL names no database (expected …/<database>)');
  return name;
}

/** A Postgres identifier in double quotes, with embedded quotes doubled. */
export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** Postgres SQLSTATE codes this runner reacts to. */
const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

function pgCode(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
