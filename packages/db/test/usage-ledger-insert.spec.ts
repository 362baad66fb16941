import { createPrismaClient, poolOf, type Db } from '../src/prisma-client';
import { UsageLedgerRepository } from '../src/usage-ledger-repository';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

/** The ledger's batch insert from the outbox's JSON, against a real, migrated Postgres. */
describe('UsageLedgerRepository.insertJson', () => {
  let db: Db;
  const { url } = useMigratedDatabase((client) => {
    db = client;
  });
  const at = Date.UTC(2026, 10, 24, 12, 0, 0, 123);
  const entry = (chargeId: string, fields: Record<string, unknown> = {}) => ({
    entryId: chargeId,
    chargeId,
    accountId: 'acc-json',
    keyId: null,
    operation: 'scoreAddress',
    kind: 'charge',
    cu: 1,
    statusCode: null,
    requestId: 'r "1" \\ \u2028',
    period: '2026-11',
    at,
    ...fields,
  });

  it('writes each entry once, typed by Postgres, through the pool', async () => {
    const ledger = new UsageLedgerRepository(db);
    expect(poolOf(db)).toBeDefined();
    const batch = JSON.stringify([
      entry('c1'),
      entry('c1:refund', { chargeId: 'c1', kind: 'refund', cu: -1, statusCode: 502 }),
      entry('c2'),
    ]);
    expect(await ledger.insertJson(batch)).toBe(3);
    expect(await ledger.insertJson(batch)).toBe(0); // written twice, kept once
    // a batch of old and new entries (a batch taken over after a crash): the new ones written, once
    expect(await ledger.insertJson(JSON.stringify([entry('c2'), entry('c3'), entry('c1')]))).toBe(1);
    expect((await ledger.entriesOfAccount('acc-json')).map((r) => r.entryId).sort()).toEqual(['c1', 'c1:refund', 'c2', 'c3']);
    const rows = await ledger.entriesOfAccount('acc-json');
    expect(rows.find((r) => r.entryId === 'c1:refund')).toEqual({
      entryId: 'c1:refund',
      chargeId: 'c1',
      accountId: 'acc-json',
      keyId: null,
      operation: 'scoreAddress',
      kind: 'refund',
      cu: -1,
      statusCode: 502,
      requestId: 'r "1" \\ \u2028',
      period: '2026-11',
      occurredAt: new Date(at),
    });
    expect(await ledger.periodTotals('acc-json', '2026-11')).toEqual({ used: 2, byOperation: { scoreAddress: 2 } });
  });

  it.each([
    ['a missing field', { at: undefined }],
    ['a kind that is not one', { kind: 'gift' }],
    ['a CU that is not an integer', { cu: 1.5 }],
  ])('refuses the whole batch for %s, writing nothing', async (_, fields) => {
    const ledger = new UsageLedgerRepository(db);
    await expect(ledger.insertJson(JSON.stringify([entry('d1'), entry('d2', fields)]))).rejects.toThrow();
    expect((await ledger.entriesOfAccount('acc-json')).map((r) => r.entryId)).not.toContain('d1');
  });

  it('after $disconnect() the client reconnects and the insert goes through Prisma', async () => {
    const other = createPrismaClient(url);
    const ledger = new UsageLedgerRepository(other);
    await other.$queryRaw`SELECT 1`; // connected, so $disconnect() ends the pool
    await other.$disconnect();
    expect(poolOf(other)).toBeUndefined();
    expect(await ledger.insertJson(JSON.stringify([entry('e1', { accountId: 'acc-after' })]))).toBe(1);
    // an entry written twice, through Prisma too: kept once, the new one beside it written
    expect(
      await ledger.insertJson(JSON.stringify([entry('e1', { accountId: 'acc-after' }), entry('e2', { accountId: 'acc-after' })])),
    ).toBe(1);
    expect(await ledger.periodTotals('acc-after', '2026-11')).toEqual({ used: 2, byOperation: { scoreAddress: 2 } });
    await other.$disconnect();
  });
});
