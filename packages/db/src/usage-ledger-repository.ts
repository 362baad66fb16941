import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { LEDGER_LINE_COLUMNS } from '@credit/contracts/ledger-columns';
import { isUniqueViolation } from './db-errors';
import { poolOf, type Db } from './prisma-client';

const LINE_COLUMNS = LEDGER_LINE_COLUMNS.map((column) => `"${column}"`).join(', ');

/** One ledger row as the metering writes it (docs/ARCHITECTURE.md, "Metering"). */
export interface UsageEntryInput {
  /** `<charge id>` or `<charge id>:refund`: writing the same entry twice writes it once. */
  entryId: string;
  chargeId: string;
  accountId: string;
  keyId: string | null;
  operation: string;
  kind: 'charge' | 'refund';
  /** Positive for a charge, negative for a refund. */
  cu: number;
  statusCode: number | null;
  requestId: string;
  /** `YYYY-MM` (UTC) */
  period: string;
  occurredAt: Date;
}

/** An account's CU for one period, as the ledger has it. */
export interface PeriodTotals {
  used: number;
  byOperation: Record<string, number>;
}

/** One UTC day's CU, per operation. */
export interface DailyTotal {
  /** `YYYY-MM-DD` */
  date: string;
  cu: number;
  byOperation: Record<string, number>;
}

export class UsageLedgerRepository {
  constructor(private readonly db: Db) {}

  /**
   * Writes the entries not written yet, in one statement of column arrays (Prisma's createMany
   * costs ten times the CPU per row); returns how many were new.
   */
  async insert(entries: readonly UsageEntryInput[]): Promise<number> {
    if (entries.length === 0) return 0;
    const column = <T>(pick: (e: UsageEntryInput) => T): T[] => entries.map(pick);
    return this.db.$executeRaw`
      INSERT INTO "usage_ledger"
        ("entry_id", "charge_id", "account_id", "key_id", "operation", "kind", "cu", "status_code", "request_id", "period", "occurred_at")
      SELECT e.entry_id, e.charge_id, e.account_id, e.key_id, e.operation, e.kind::"usage_entry_kind", e.cu, e.status_code,
             e.request_id, e.period, e.occurred_at
      FROM unnest(
        ${column((e) => e.entryId)}::text[], ${column((e) => e.chargeId)}::text[], ${column((e) => e.accountId)}::text[],
        ${column((e) => e.keyId)}::text[], ${column((e) => e.operation)}::text[], ${column((e) => e.kind)}::text[],
        ${column((e) => e.cu)}::int[], ${column((e) => e.statusCode)}::int[], ${column((e) => e.requestId)}::text[],
        ${column((e) => e.period)}::text[], ${column((e) => e.occurredAt.toISOString())}::timestamptz[]
      ) AS e(entry_id, charge_id, account_id, key_id, operation, kind, cu, status_code, request_id, period, occurred_at)
      ON CONFLICT ("entry_id") DO NOTHING`;
  }

  /**
   * Writes outbox lines (COPY text, the columns of `LEDGER_LINE_COLUMNS`, each line ending in a
   * newline: the metering's ledger-line.ts) that are not written yet: copied as they are into the
   * table, so Postgres parses and types them, with no statement to plan and no row object per entry
   * in Node (docs/benchmarks/2026-11-24.md: ~2 µs less Postgres CPU a row than `json_to_recordset`). A field
   * missing or of the wrong type fails the whole batch, and nothing is written. Returns how many
   * were new. Needs the client's pool (`poolOf`): without it (a client being shut down) this
   * throws, and the writer falls back to `insert`.
   *
   * A batch is copied straight into the ledger first: entries are new but on the recovery paths (a
   * batch taken over or retried). A batch holding an entry already written fails as a whole; it is
   * then copied into a temporary table and inserted from there skipping the ones that exist.
   */
  async insertLines(lines: string | Buffer): Promise<number> {
    const pool = poolOf(this.db);
    if (pool === undefined) throw new Error('the ledger copy needs the database pool, which is closed');
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      try {
        return await copy(client, `COPY "usage_ledger" (${LINE_COLUMNS}) FROM STDIN`, lines);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      await client.query('BEGIN');
      try {
        await client.query('CREATE TEMPORARY TABLE "usage_ledger_batch" (LIKE "usage_ledger" INCLUDING DEFAULTS) ON COMMIT DROP');
        await copy(client, `COPY "usage_ledger_batch" (${LINE_COLUMNS}) FROM STDIN`, lines);
        const { rowCount } = await client.query(
          `INSERT INTO "usage_ledger" (${LINE_COLUMNS}) SELECT ${LINE_COLUMNS} FROM "usage_ledger_batch" ON CONFLICT ("entry_id") DO NOTHING`,
        );
        await client.query('COMMIT');
        return rowCount ?? 0;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } catch (error) {
      // an error without a SQLSTATE is the connection's own: it is not given back to the pool
      if (!(error instanceof Error && 'code' in error && typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code))) {
        broken = error instanceof Error ? error : new Error(String(error));
      }
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** The account's CU in the period, per operation (operations that net to 0 are left out). */
  async periodTotals(accountId: string, period: string): Promise<PeriodTotals> {
    const groups = await this.db.usageEntry.groupBy({
      by: ['operation'],
      where: { accountId, period },
      _sum: { cu: true },
    });
    const byOperation: Record<string, number> = {};
    let used = 0;
    for (const group of groups) {
      const cu = group._sum.cu ?? 0;
      used += cu;
      if (cu !== 0) byOperation[group.operation] = cu;
    }
    return { used, byOperation };
  }

  /** The account's CU in the period per API key (charges less refunds); keys that net to 0 are left out. */
  async keyTotals(accountId: string, period: string): Promise<{ keyId: string; cu: number }[]> {
    const groups = await this.db.usageEntry.groupBy({
      by: ['keyId'],
      where: { accountId, period, keyId: { not: null } },
      _sum: { cu: true },
    });
    return groups
      .map((group) => ({ keyId: group.keyId ?? '', cu: group._sum.cu ?? 0 }))
      .filter((total) => total.keyId !== '' && total.cu !== 0)
      .sort((a, b) => b.cu - a.cu || a.keyId.localeCompare(b.keyId));
  }

  /**
   * The account's CU in the period per UTC day and operation, days in order. A refund counts on
   * its charge's day, so a charge made before midnight and refunded after nets to 0 on one day.
   */
  async dailyTotals(accountId: string, period: string): Promise<DailyTotal[]> {
    const rows = await this.db.$queryRaw<{ day: string; operation: string; cu: bigint }[]>`
      SELECT to_char(COALESCE(c."occurred_at", e."occurred_at") AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             e."operation", sum(e."cu")::bigint AS cu
      FROM "usage_ledger" AS e
      LEFT JOIN "usage_ledger" AS c ON c."entry_id" = e."charge_id" AND e."kind" = 'refund'
      WHERE e."account_id" = ${accountId} AND e."period" = ${period}
      GROUP BY 1, 2
      HAVING sum(e."cu") <> 0
      ORDER BY 1, 2`;
    const days = new Map<string, DailyTotal>();
    for (const row of rows) {
      const day = days.get(row.day) ?? { date: row.day, cu: 0, byOperation: {} };
      const cu = Number(row.cu);
      day.cu += cu;
      day.byOperation[row.operation] = cu;
      days.set(row.day, day);
    }
    return [...days.values()];
  }

  /** Every entry of a charge, oldest first (support and tests). */
  async entriesOfAccount(accountId: string): Promise<UsageEntryInput[]> {
    const rows = await this.db.usageEntry.findMany({ where: { accountId }, orderBy: [{ occurredAt: 'asc' }, { kind: 'asc' }] });
    return rows.map((row) => ({
      entryId: row.entryId,
      chargeId: row.chargeId,
      accountId: row.accountId,
      keyId: row.keyId,
      operation: row.operation,
      kind: row.kind,
      cu: row.cu,
      statusCode: row.statusCode,
      requestId: row.requestId,
      period: row.period,
      occurredAt: row.occurredAt,
    }));
  }
}

/** `text` through a `COPY … FROM STDIN` on `client`; resolves with the rows copied. */
function copy(client: PoolClient, statement: string, text: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = client.query(copyFrom(statement));
    stream.on('error', reject);
    stream.on('finish', () => resolve(stream.rowCount ?? 0));
    stream.end(text);
  });
}
