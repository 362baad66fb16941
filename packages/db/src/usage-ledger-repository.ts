import { isUniqueViolation } from './db-errors';
import { poolOf, type Db } from './prisma-client';

/**
 * The ledger's batch insert from a JSON array of outbox entries ($1). Plain: an entry already
 * written fails the whole statement (unique violation), and nothing is written.
 */
const INSERT_JSON = `
  INSERT INTO "usage_ledger"
    ("entry_id", "charge_id", "account_id", "key_id", "operation", "kind", "cu", "status_code", "request_id", "period", "occurred_at")
  SELECT e."entryId", e."chargeId", e."accountId", e."keyId", e."operation", e."kind"::"usage_entry_kind", e."cu", e."statusCode",
         e."requestId", e."period", timestamptz 'epoch' + e."at" * interval '1 millisecond'
  FROM json_to_recordset($1::json) AS e(
    "entryId" text, "chargeId" text, "accountId" text, "keyId" text, "operation" text, "kind" text, "cu" int,
    "statusCode" int, "requestId" text, "period" text, "at" bigint
  )`;

/** The same, skipping the entries already written. */
const INSERT_JSON_NEW = `${INSERT_JSON}
  ON CONFLICT ("entry_id") DO NOTHING`;

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
   * Writes the entries of a JSON array in the outbox's own shape (`LedgerEntry` of
   * `@credit/metering`: camelCase fields, `at` in ms since the epoch) that are not written yet,
   * parsed and typed by Postgres: the ledger writer hands the outbox's text through without a parse
   * or a row object per entry in Node, and through the client's pool, not Prisma (`poolOf`). A
   * field missing or of the wrong type fails the whole statement (a NOT NULL, enum or integer
   * error), and nothing is written. Returns how many were new.
   *
   * A batch is tried as a plain INSERT first: entries are new but on the recovery paths (a batch
   * taken over or retried), and `ON CONFLICT DO NOTHING`'s speculative insertion costs Postgres
   * ~20% more CPU a row (docs/BENCHMARKS.md). A batch holding an entry already written fails as a
   * whole and is written again skipping the ones that exist.
   */
  async insertJson(entries: string): Promise<number> {
    try {
      return await this.executeJson(INSERT_JSON, entries);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return this.executeJson(INSERT_JSON_NEW, entries);
    }
  }

  private async executeJson(statement: string, entries: string): Promise<number> {
    const pool = poolOf(this.db);
    if (pool === undefined) return this.db.$executeRawUnsafe(statement, entries);
    return (await pool.query(statement, [entries])).rowCount ?? 0;
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
