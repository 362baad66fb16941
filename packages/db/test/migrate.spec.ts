import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from '../src/migrate';
import { dropDatabase, freshDatabaseUrl, withClient } from './throwaway-database';

jest.setTimeout(60_000);

const INIT = readMigrations()[0]!.name;
/** Every migration of the package, in order. */
const ALL = readMigrations().map((m) => m.name);

describe('migrate', () => {
  const urls: string[] = [];
  const dirs: string[] = [];

  /** A database name nobody uses; dropped after the test file. */
  function newUrl(): string {
    const url = freshDatabaseUrl();
    urls.push(url);
    return url;
  }

  /** A copy of the package's migrations that a test may add to or change. */
  function copyOfMigrations(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'credit-migrations-'));
    dirs.push(dir);
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    return dir;
  }

  function addMigration(dir: string, name: string, sql: string): void {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }

  afterAll(async () => {
    for (const url of urls) await dropDatabase(url);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('creates the database, applies every migration, and records them as Prisma does', async () => {
    const url = newUrl();

    await expect(migrate(url)).resolves.toEqual({ applied: ALL });

    await withClient(url, async (client) => {
      const tables = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual([
        '_prisma_migrations',
        'accounts',
        'address_activity',
        'api_keys',
        'chain_lending_moves',
        'chain_logs',
        'chain_price_answers',
        'chain_transactions',
        'dashboard_sessions',
        'email_verifications',
        'ens_name_events',
        'indexer_chains',
        'indexer_checkpoints',
        'indexer_ranges',
        'password_resets',
        'payments',
        'usage_ledger',
        'usage_status_daily',
        'webhook_deliveries',
        'webhook_scores',
        'webhooks',
      ]);

      const history = await client.query(
        'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name',
      );
      expect(history.rows).toEqual(
        ALL.map((name) => ({
          migration_name: name,
          checksum: createHash('sha256')
            .update(readFileSync(path.join(MIGRATIONS_DIR, name, 'migration.sql')))
            .digest('hex'),
          finished_at: expect.any(Date),
          rolled_back_at: null,
          applied_steps_count: 1,
          logs: null,
        })),
      );
    });
  });

  it('applies nothing the second time', async () => {
    const url = newUrl();
    await migrate(url);

    await expect(migrate(url)).resolves.toEqual({ applied: [] });
    await withClient(url, async (client) => {
      const { rows } = await client.query('SELECT count(*)::int AS n FROM "_prisma_migrations"');
      expect(rows[0].n).toBe(ALL.length);
    });
  });

  it('applies only the migrations added since the last run, in name order', async () => {
    const url = newUrl();
    const dir = copyOfMigrations();
    await migrate(url, { migrationsDir: dir });

    addMigration(dir, '20990102000000_second', 'CREATE TABLE "second" ("id" INTEGER NOT NULL);');
    addMigration(dir, '20990101000000_first', 'CREATE TABLE "first" ("id" INTEGER NOT NULL);');

    await expect(migrate(url, { migrationsDir: dir })).resolves.toEqual({
      applied: ['20990101000000_first', '20990102000000_second'],
    });
    await expect(migrate(url, { migrationsDir: dir })).resolves.toEqual({ applied: [] });
  });

  it('refuses to run when an applied migration was changed', async () => {
    const url = newUrl();
    const dir = copyOfMigrations();
    await migrate(url, { migrationsDir: dir });

    const file = path.join(dir, INIT, 'migration.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- an edit after the fact\n`);
    addMigration(dir, '20990101000000_next', 'CREATE TABLE "next" ("id" INTEGER NOT NULL);');

    const run = migrate(url, { migrationsDir: dir });
    await expect(run).rejects.toBeInstanceOf(MigrationError);
    await expect(migrate(url, { migrationsDir: dir })).rejects.toThrow(new RegExp(`migration ${INIT} was changed after it was applied`));
    // Nothing after the changed migration ran either.
    await withClient(url, async (client) => {
      const { rows } = await client.query(`SELECT to_regclass('public.next') AS next`);
      expect(rows[0].next).toBeNull();
    });
  });

  it('rolls a failing migration back entirely and does not record it', async () => {
    const url = newUrl();
    const dir = copyOfMigrations();
    addMigration(
      dir,
      '20990101000000_broken',
      'CREATE TABLE "half_done" ("id" INTEGER NOT NULL);\nALTER TABLE "no_such_table" ADD COLUMN "x" INTEGER;',
    );

    await expect(migrate(url, { migrationsDir: dir })).rejects.toThrow(
      /migration 20990101000000_broken failed and was rolled back: .*no_such_table/,
    );

    await withClient(url, async (client) => {
      const history = await client.query('SELECT migration_name FROM "_prisma_migrations" ORDER BY started_at');
      expect(history.rows).toEqual(ALL.map((name) => ({ migration_name: name })));
      const { rows } = await client.query(`SELECT to_regclass('public.half_done') AS t`);
      expect(rows[0].t).toBeNull();
    });

    // Once fixed, the migration applies.
    writeFileSync(path.join(dir, '20990101000000_broken', 'migration.sql'), 'CREATE TABLE "half_done" ("id" INTEGER NOT NULL);');
    await expect(migrate(url, { migrationsDir: dir })).resolves.toEqual({ applied: ['20990101000000_broken'] });
  });

  it('refuses to build on a migration another tool recorded as failed', async () => {
    const url = newUrl();
    await migrate(url);
    await withClient(url, (client) =>
      client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ('00000000-0000-0000-0000-000000000001', 'x', '20990101000000_failed', now(), 0)`,
      ),
    );

    await expect(migrate(url)).rejects.toThrow(/failed migration\(s\): 20990101000000_failed/);
  });

  it('is safe to run concurrently: the migration is applied exactly once', async () => {
    const url = newUrl();

    const results = await Promise.all(Array.from({ length: 5 }, () => migrate(url)));

    expect(results.flatMap((result) => result.applied)).toEqual(ALL);
    await withClient(url, async (client) => {
      const { rows } = await client.query('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
      expect(rows).toEqual(ALL.map((name) => ({ migration_name: name })));
    });
  });

  it('reads the package migrations in name order, each with its checksum', () => {
    const migrations = readMigrations();
    expect(migrations.map((m) => m.name)).toEqual([...migrations.map((m) => m.name)].sort());
    for (const migration of migrations) {
      expect(migration.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(migration.sql.length).toBeGreaterThan(0);
    }
  });

  it('names a missing migrations folder', async () => {
    await expect(migrate(newUrl(), { migrationsDir: path.join(tmpdir(), 'no-such-migrations') })).rejects.toThrow(
      /migrations folder not found/,
    );
  });
});
