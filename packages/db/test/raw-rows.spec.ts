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

  it('asks a disconnected client through Prisma, which connects again: int8 then comes back as a bigint', async () => {
    await db.$queryRawUnsafe('SELECT 1'); // Prisma connected: its $disconnect ends the pool
    await db.$disconnect();
    expect(poolOf(db)).toBeUndefined();
    const [row] = await rawRows<{ big: string | bigint }>(db, 'SELECT $1::int8 AS big', [5n]);
    expect(row!.big).toBe(5n);
    await closePrismaClient(db);
  });
});
