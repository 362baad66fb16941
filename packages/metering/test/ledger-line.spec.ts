import { LEDGER_LINE_COLUMNS } from '@credit/contracts/ledger-columns';
import type { LedgerEntry } from '../src/ledger-entry';
import { copyText, ledgerLine, parseLedgerLines, timestampOf } from '../src/ledger-line';

const entry: LedgerEntry = {
  entryId: 'c1:refund',
  chargeId: 'c1',
  accountId: 'acc\t1',
  keyId: 'key\\1',
  operation: 'scoreBatch',
  kind: 'refund',
  cu: -3,
  statusCode: 502,
  requestId: 'r "1"\n\r\t\\N \u2028',
  period: '2026-11',
  at: Date.UTC(2026, 10, 24, 23, 59, 59, 7),
};

it('writes an entry as one COPY line in the columns order, every special character escaped', () => {
  const line = ledgerLine(entry);
  expect(line.endsWith('\n')).toBe(true);
  expect(line.slice(0, -1)).not.toMatch(/[\n\r]/);
  const fields = line.slice(0, -1).split('\t');
  expect(fields).toHaveLength(LEDGER_LINE_COLUMNS.length);
  const at = (column: (typeof LEDGER_LINE_COLUMNS)[number]) => fields[LEDGER_LINE_COLUMNS.indexOf(column)];
  expect(at('account_id')).toBe('acc\\t1');
  expect(at('key_id')).toBe('key\\\\1');
  expect(at('request_id')).toBe('r "1"\\n\\r\\t\\\\N \u2028');
  expect(at('status_code')).toBe('502');
  expect(at('occurred_at')).toBe('2026-11-24T23:59:59.007Z');
  expect(
    ledgerLine({ ...entry, keyId: null, statusCode: null })
      .split('\t')
      .filter((f) => f === '\\N'),
  ).toHaveLength(2);
});

it('reads back what it wrote, and gives back lines that are not entries', () => {
  const charge: LedgerEntry = { ...entry, entryId: 'c2', chargeId: 'c2', kind: 'charge', cu: 1, keyId: null, statusCode: null };
  const text = ledgerLine(entry) + ledgerLine(charge) + ledgerLine({ ...charge, entryId: 'c3', cu: 1.5 }) + 'c4\tc4\n';
  const { entries, malformed } = parseLedgerLines(text);
  expect(entries).toEqual([entry, charge]);
  expect(malformed).toEqual([ledgerLine({ ...charge, entryId: 'c3', cu: 1.5 }).slice(0, -1), 'c4\tc4']);
  const line = ledgerLine(charge);
  for (const spoiled of [line.replace('\tcharge\t', '\tgift\t'), line.replace('2026-11\t', '2026-1\t'), line.replace('.007Z', 'Z')]) {
    expect(parseLedgerLines(spoiled)).toEqual({ entries: [], malformed: [spoiled.slice(0, -1)] });
  }
});

it('gives the time as toISOString does, across seconds and back', () => {
  const base = Date.UTC(2026, 10, 30, 23, 59, 58, 0);
  for (const at of [base, base + 5, base + 50, base + 999, base + 1_000, base + 1_001, base + 2_000, base + 3, base + 86_400_000]) {
    expect(timestampOf(at)).toBe(new Date(at).toISOString());
  }
});

it('leaves text without special characters as it is', () => {
  const id = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
  expect(copyText(id)).toBe(id);
  expect(copyText('a\\b')).toBe('a\\\\b');
});
