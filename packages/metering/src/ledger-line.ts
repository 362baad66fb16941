import { LEDGER_LINE_COLUMNS } from '@credit/contracts/ledger-columns';
import { LedgerEntry } from './ledger-entry';

/**
 * A ledger entry as the outbox carries it: one line of Postgres's COPY text format, its fields in
 * the order of `LEDGER_LINE_COLUMNS`, ending in a newline. The ledger writer copies a batch of lines
 * into `usage_ledger` as they are; Postgres parses and types them (docs/decisions/0004).
 */
export function ledgerLine(entry: LedgerEntry): string {
  const fields: Record<(typeof LEDGER_LINE_COLUMNS)[number], string> = {
    entry_id: copyText(entry.entryId),
    charge_id: copyText(entry.chargeId),
    account_id: copyText(entry.accountId),
    key_id: entry.keyId === null ? COPY_NULL : copyText(entry.keyId),
    operation: copyText(entry.operation),
    kind: entry.kind,
    cu: String(entry.cu),
    status_code: entry.statusCode === null ? COPY_NULL : String(entry.statusCode),
    request_id: copyText(entry.requestId),
    period: copyText(entry.period),
    occurred_at: timestampOf(entry.at),
  };
  return `${LEDGER_LINE_COLUMNS.map((column) => fields[column]).join('\t')}\n`;
}

/** COPY's null. */
export const COPY_NULL = '\\N';

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text field of a COPY line: a backslash, tab, newline or carriage return escaped. */
export function copyText(value: string): string {
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `at` (ms since the epoch, an integer) as ISO 8601 in UTC, `YYYY-MM-DDTHH:MM:SS.mmmZ`, what
 * `Date.prototype.toISOString` gives; the part up to the second is kept, since the metered
 * requests of one second share it.
 */
export function timestampOf(at: number): string {
  const second = Math.floor(at / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 20);
    cachedSecond = second;
  }
  const ms = at - second * 1000;
  return `${cachedPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
}

/**
 * The entries of a block of outbox lines, each checked; a line that is not a well-formed entry is
 * given back as malformed (the writer logs and skips it).
 */
export function parseLedgerLines(text: string): { entries: LedgerEntry[]; malformed: string[] } {
  const entries: LedgerEntry[] = [];
  const malformed: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const entry = parseLine(line);
    if (entry === undefined) malformed.push(line);
    else entries.push(entry);
  }
  return { entries, malformed };
}

function parseLine(line: string): LedgerEntry | undefined {
  const raw = line.split('\t');
  if (raw.length !== LEDGER_LINE_COLUMNS.length) return undefined;
  const field = (column: (typeof LEDGER_LINE_COLUMNS)[number]): string | null => {
    const value = raw[LEDGER_LINE_COLUMNS.indexOf(column)]!;
    return value === COPY_NULL ? null : value.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c);
  };
  const integer = (value: string | null): number | null | undefined =>
    value === null ? null : /^-?\d+$/.test(value) ? Number(value) : undefined;
  const occurredAt = field('occurred_at');
  const at = occurredAt === null || !ISO_UTC.test(occurredAt) ? Number.NaN : Date.parse(occurredAt);
  // the schema the outbox's entries keep (only the writer's checked path parses lines)
  const parsed = LedgerEntry.safeParse({
    entryId: field('entry_id'),
    chargeId: field('charge_id'),
    accountId: field('account_id'),
    keyId: field('key_id'),
    operation: field('operation'),
    kind: field('kind'),
    cu: integer(field('cu')),
    statusCode: integer(field('status_code')),
    requestId: field('request_id'),
    period: field('period'),
    at,
  });
  return parsed.success ? parsed.data : undefined;
}

const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' };
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
