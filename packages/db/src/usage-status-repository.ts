import type { Db } from './prisma-client';

/** How a production request was answered, as the dashboard counts it. */
export const STATUS_CLASSES = ['2xx', '4xx', '429', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** The class of an HTTP status: 429 on its own, other 4xx refused, 5xx failed, the rest served. */
export function statusClassOf(statusCode: number): StatusClass {
  if (statusCode === 429) return '429';
  if (statusCode >= 500) return '5xx';
  if (statusCode >= 400) return '4xx';
  return '2xx';
}

/** Requests of one key on one UTC day answered in one class, to be added to the running sum. */
export interface StatusCount {
  accountId: string;
  keyId: string;
  /** `YYYY-MM-DD` (UTC) */
  day: string;
  statusClass: StatusClass;
  requests: number;
}

/** One key's requests of a period by status class. */
export interface KeyStatusTotals {
  keyId: string;
  requests: Record<StatusClass, number>;
}

/**
 * The production requests of each key per UTC day and status class (`usage_status_daily`): running
 * sums the gateway adds its in-memory counts to, so every replica adds to the same rows.
 */
export class UsageStatusRepository {
  constructor(private readonly db: Db) {}

  /** Adds each count to its row (made at 0 if new), in one statement. */
  async add(counts: readonly StatusCount[]): Promise<void> {
    if (counts.length === 0) return;
    const column = <T>(pick: (c: StatusCount) => T): T[] => counts.map(pick);
    await this.db.$executeRaw`
      INSERT INTO "usage_status_daily" ("account_id", "key_id", "day", "status_class", "requests")
      SELECT c.account_id, c.key_id, c.day, c.status_class, c.requests
      FROM unnest(
        ${column((c) => c.accountId)}::text[], ${column((c) => c.keyId)}::text[], ${column((c) => c.day)}::date[],
        ${column((c) => c.statusClass)}::text[], ${column((c) => c.requests)}::bigint[]
      ) AS c(account_id, key_id, day, status_class, requests)
      ON CONFLICT ("account_id", "day", "key_id", "status_class")
      DO UPDATE SET "requests" = "usage_status_daily"."requests" + EXCLUDED."requests"`;
  }

  /** The account's requests per key and class in the period (`YYYY-MM`), keys by most requests. */
  async keyTotals(accountId: string, period: string): Promise<KeyStatusTotals[]> {
    const first = `${period}-01`;
    const rows = await this.db.$queryRaw<{ key_id: string; status_class: string; requests: bigint }[]>`
      SELECT "key_id", "status_class", sum("requests")::bigint AS requests
      FROM "usage_status_daily"
      WHERE "account_id" = ${accountId} AND "day" >= ${first}::date AND "day" < (${first}::date + interval '1 month')
      GROUP BY 1, 2`;
    const byKey = new Map<string, KeyStatusTotals>();
    for (const row of rows) {
      const totals = byKey.get(row.key_id) ?? { keyId: row.key_id, requests: { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0 } };
      if ((STATUS_CLASSES as readonly string[]).includes(row.status_class))
        totals.requests[row.status_class as StatusClass] = Number(row.requests);
      byKey.set(row.key_id, totals);
    }
    const sum = (t: KeyStatusTotals) => STATUS_CLASSES.reduce((n, c) => n + t.requests[c], 0);
    return [...byKey.values()].sort((a, b) => sum(b) - sum(a) || a.keyId.localeCompare(b.keyId));
  }
}
