import { LEDGER_LINE_COLUMNS } from '@credit/contracts/ledger-columns';
import { createPrismaClient, poolOf, type Db } from '../src/prisma-client';
import { UsageLedgerRepository } from '../src/usage-ledger-repository';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

/** The ledger's batch copy from the outbox's lines, against a real, migrated Postgres. */
describe('UsageLedgerRepository.insertLines', () => {
  let db: Db;
  const { url } = useMigratedDatabase((client) => {
    db = client;
  });
  const at = '2026-11-24T12:00:00.123Z';
  // a caller's request id with each character COPY escapes, and a quote
  const requestId = 'r "1" \\ \t \n \r \u2028';
  const escaped = (text: string) => text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
  /** One outbox line, as the metering writes it: the columns of LEDGER_LINE_COLUMNS. */
  const line = (chargeId: string, fields: Record<string, string> = {}) => {
    const row: Record<string, string> = {
      entry_id: chargeId,
      charge_id: chargeId,
      account_id: 'acc-lines',
      key_id: '\\N',
      operation: 'scoreAddress',
      kind: 'charge',
      cu: '1',
      status_code: '\\N',
      request_id: escaped(requestId),
      period: '2026-11',
      occurred_at: at,
      ...fields,
    };
    return `${LEDGER_LINE_COLUMNS.map((column) => row[column]).join('\t')}\n`;
  };

  it('writes each entry once, typed by Postgres, through the pool', async () => {
    const ledger = new UsageLedgerRepository(db);
    expect(poolOf(db)).toBeDefined();
    const batch = line('c1') + line('c1:refund', { charge_id: 'c1', kind: 'refund', cu: '-1', status_code: '502' }) + line('c2');
    expect(await ledger.insertLines(batch)).toBe(3);
    expect(await ledger.insertLines(batch)).toBe(0); // written twice, kept once
    // a batch of old and new entries (a batch taken over after a crash): the new ones written, once
    expect(await ledger.insertLines(line('c2') + line('c3') + line('c1'))).toBe(1);
    expect((await ledger.entriesOfAccount('acc-lines')).map((r) => r.entryId).sort()).toEqual(['c1', 'c1:refund', 'c2', 'c3']);
    const rows = await ledger.entriesOfAccount('acc-lines');
    expect(rows.find((r) => r.entryId === 'c1:refund')).toEqual({
      entryId: 'c1:refund',
      chargeId: 'c1',
      accountId: 'acc-lines',
      keyId: null,
      operation: 'scoreAddress',
      kind: 'refund',
      cu: -1,
      statusCode: 502,
      requestId,
      period: '2026-11',
      occurredAt: new Date(at),
    });
    expect(await ledger.periodTotals('acc-lines', '2026-11')).toEqual({ used: 2, byOperation: { scoreAddress: 2 } });
    // the pool's connections are all back and usable
    expect(await ledger.insertLines(line('c4', { key_id: 'k1' }))).toBe(1);
    expect((await ledger.entriesOfAccount('acc-lines')).find((r) => r.entryId === 'c4')?.keyId).toBe('k1');
  });

  it.each([
    ['a missing field', (l: string) => l.slice(0, l.lastIndexOf('\t')) + '\n'],
    ['a kind that is not one', (l: string) => l.replace('\tcharge\t', '\tgift\t')],
    ['a CU that is not an integer', (l: string) => l.replace('\tcharge\t1\t', '\tcharge\t1.5\t')],
    ['a line without its newline', (l: string) => l.slice(0, -1)],
  ])('refuses the whole batch for %s, writing nothing', async (_, spoil) => {
    const ledger = new UsageLedgerRepository(db);
    await expect(ledger.insertLines(line('d1') + spoil(line('d2')) + line('d3'))).rejects.toThrow();
    expect((await ledger.entriesOfAccount('acc-lines')).map((r) => r.entryId)).not.toContain('d1');
  });

  it('without the pool (a client shut down) the copy is refused and nothing is written; the client still inserts rows', async () => {
    const other = createPrismaClient(url);
    const ledger = new UsageLedgerRepository(other);
    await other.$queryRaw`SELECT 1`; // connected, so $disconnect() ends the pool
    await other.$disconnect();
    expect(poolOf(other)).toBeUndefined();
    await expect(ledger.insertLines(line('e1', { account_id: 'acc-after' }))).rejects.toThrow(/pool/);
    const row = { entryId: 'e1', chargeId: 'e1', accountId: 'acc-after', keyId: null, operation: 'scoreAddress', kind: 'charge' as const };
    const entry = { ...row, cu: 1, statusCode: null, requestId, period: '2026-11', occurredAt: new Date(at) };
    expect(await ledger.insert([entry])).toBe(1);
    // an entry written twice, through Prisma too: kept once, the new one beside it written
    expect(await ledger.insert([entry, { ...entry, entryId: 'e2', chargeId: 'e2' }])).toBe(1);
    expect(await ledger.periodTotals('acc-after', '2026-11')).toEqual({ used: 2, byOperation: { scoreAddress: 2 } });
    await other.$disconnect();
  });
});
