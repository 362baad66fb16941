import type { Db } from './prisma-client';

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

export class UsageLedgerRepository {
  constructor(private readonly db: Db) {}

  /** Writes the entries not written yet, in one statement; returns how many were new. */
  async insert(entries: readonly UsageEntryInput[]): Promise<number> {
    if (entries.length === 0) return 0;
    const { count } = await this.db.usageEntry.createMany({ data: [...entries], skipDuplicates: true });
    return count;
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

  /** Every entry of a charge, oldest first (support and tests). */
  async entriesOfAccount(accountId: string): Promise<UsageEntryInput[]> {
    const rows = await this.db.usageEntry.findMany({ where: { accountId }, orderBy: { id: 'asc' } });
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
