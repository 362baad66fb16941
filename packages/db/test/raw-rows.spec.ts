import { closePrismaClient, createPrismaClient, type Db } from '../src/prisma-client';
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

  it('refuses a closed client instead of reaching for a pool that is gone', async () => {
    await closePrismaClient(db);
    await expect(rawRows(db, 'SELECT 1', [])).rejects.toThrow('the database client is closed');
  });
});
