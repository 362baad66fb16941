import { z } from 'zod';

/**
 * A charge or a refund as the metering script appends it to the outbox, and as the ledger stores
 * it. The charge id is made by the gateway for each metered request (never the caller's
 * x-request-id), so the counter's move and its ledger row carry the same id end to end.
 */
export const LedgerEntry = z.object({
  entryId: z.string().min(1),
  chargeId: z.string().min(1),
  accountId: z.string().min(1),
  keyId: z.string().nullable(),
  operation: z.string().min(1),
  kind: z.enum(['charge', 'refund']),
  cu: z.number().int(),
  statusCode: z.number().int().nullable(),
  requestId: z.string(),
  period: z.string().regex(/^\d{4}-\d{2}$/),
  /** ms since the epoch */
  at: z.number().int(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export function refundEntryId(chargeId: string): string {
  return `${chargeId}:refund`;
}

/** What writes the ledger: `packages/db`'s UsageLedgerRepository. */
export interface LedgerStore {
  insert(entries: readonly LedgerRow[]): Promise<number>;
  /**
   * The same from outbox lines (ledger-line.ts: COPY text in the order of LEDGER_LINE_COLUMNS),
   * typed by the store; throws (writing nothing) if one does not fit.
   */
  insertLines(lines: string | Buffer): Promise<number>;
  periodTotals(accountId: string, period: string): Promise<{ used: number; byOperation: Record<string, number> }>;
}

export type LedgerRow = Omit<LedgerEntry, 'at'> & { occurredAt: Date };

export function toLedgerRow(entry: LedgerEntry): LedgerRow {
  const { at, ...rest } = entry;
  return { ...rest, occurredAt: new Date(at) };
}
