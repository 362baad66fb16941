import { closePrismaClient, createPrismaClient, poolOf, type Db } from '../src/prisma-client';
import { rawRows } from '../src/raw-rows';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

describe('rawRows', () => {
  const database = useMigratedDatabase(() => undefined);
  let db: Db;

  beforeAll(() => {
    db = createPrismaClient(database.url);
  });

  it("answers node-postgres's types: int8 as a string, int4 as a number, timestamptz as a Date, arrays parsed", async () => {
    const [row] = await rawRows<{ big: string; small: number; at: Date; months: number[] }>(
      db,
      `SELECT $1::int8 AS big, $2::int4 AS small, $3::timestamptz AS at, $4::int[] AS months`,
      [2n ** 62n, 7, new Date('2026-05-01T00:00:00Z'), [3, 1]],
    );
    expect(row).toEqual({ big: String(2n ** 62n), small: 7, at: new Date('2026-05-01T00:00:00Z'), months: [3, 1] });
  });

  it('prepares each text once on a connection, and plans every call for its own values', async () => {
    const one = createPrismaClient(database.url, { maxConnections: 1 });
    try {
      const sql = 'SELECT c.chain_id FROM indexer_checkpoints c WHERE c.chain_id = $1::int';
      for (let i = 0; i < 8; i++) await rawRows(one, sql, [i]);
      await rawRows(one, 'SELECT $1::int AS x', [1]);
      const prepared = await rawRows<{ statement: string; custom_plans: string; generic_plans: string }>(
        one,
        'SELECT statement, custom_plans, generic_plans FROM pg_prepared_statements',
        [],
      );
      const mine = prepared.filter((p) => p.statement === sql);
      // one statement for eight calls, each planned with its values (the planner would otherwise
      // switch to one generic plan after five)
      expect(mine).toHaveLength(1);
      expect(Number(mine[0]!.custom_plans)).toBe(8);
      expect(Number(mine[0]!.generic_plans)).toBe(0);
      expect(prepared.some((p) => p.statement === 'SELECT $1::int AS x')).toBe(true);
    } finally {
      await closePrismaClient(one);
    }
  });

  it('asks a disconnected client through Prisma, which connects again: int8 then comes back as a bigint', async () => {
    await db.$queryRawUnsafe('SELECT 1'); // Prisma connected: its $disconnect ends the pool
    await db.$disconnect();
    expect(poolOf(db)).toBeUndefined();
    const [row] = await rawRows<{ big: string | bigint }>(db, 'SELECT $1::int8 AS big', [5n]);
    expect(row!.big).toBe(5n);
    await closePrismaClient(db);
  });
});
