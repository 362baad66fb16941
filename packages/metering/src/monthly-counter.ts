import type { Redis } from 'ioredis';
import { refundEntryId, type LedgerEntry, type LedgerStore } from './ledger-entry';
import { ledgerLine } from './ledger-line';
import type { MeterCommands } from './meter-commands';
import type { MeterKeys } from './meter-keys';
import { periodAt, type Period } from './period';
import type { Reservation } from './meter';

/** How the ledger's totals are read when a counter has to be rebuilt. */
export type PeriodTotalsSource = Pick<LedgerStore, 'periodTotals'>;

/** Counters outlive their month by this much (for `accounts:show` and late refunds). */
const COUNTER_GRACE_S = 40 * 24 * 3600;

/**
 * An account's monthly CU counter outside admission: the refund of what a reservation did not
 * serve, the counter's reads, and its seed from the ledger when Redis has none.
 */
export class MonthlyCounter {
  constructor(
    private readonly redis: Redis & MeterCommands,
    private readonly keys: MeterKeys,
    private readonly ledger: PeriodTotalsSource,
    private readonly now: () => number,
  ) {}

  /**
   * Gives back what was reserved and not served (`served` CU of the reservation stand). Returns
   * the counter afterwards (null when it is gone and will be rebuilt from the ledger).
   */
  async settle(reservation: Reservation, served: number, statusCode: number): Promise<number | null> {
    const refund = reservation.reserved - Math.min(Math.max(served, 0), reservation.reserved);
    if (refund === 0) return reservation.used;
    const entry: LedgerEntry = {
      entryId: refundEntryId(reservation.chargeId),
      chargeId: reservation.chargeId,
      accountId: reservation.accountId,
      keyId: reservation.keyId,
      operation: reservation.operation,
      kind: 'refund',
      cu: -refund,
      statusCode,
      requestId: reservation.requestId,
      period: reservation.period.id,
      at: this.now(),
    };
    const used = await this.redis.meterRefund(
      this.keys.counter(reservation.accountId, reservation.period.id),
      this.keys.outbox,
      refund,
      reservation.operation,
      ledgerLine(entry),
    );
    return used < 0 ? null : used;
  }

  /** The account's CU this month, per operation (the counter, rebuilt from the ledger if gone). */
  async usage(accountId: string): Promise<{ period: Period; used: number; byOperation: Record<string, number> }> {
    const period = periodAt(this.now());
    const counter = this.keys.counter(accountId, period.id);
    let fields = await this.redis.hgetall(counter);
    if (fields.used === undefined) {
      await this.seed(accountId, period);
      fields = await this.redis.hgetall(counter);
    }
    return { period, ...countsOf(fields) };
  }

  /** The counter as it is in Redis, without rebuilding it (null when there is none). */
  async peek(accountId: string, period: string): Promise<{ used: number; byOperation: Record<string, number> } | null> {
    const fields = await this.redis.hgetall(this.keys.counter(accountId, period));
    return fields.used === undefined ? null : countsOf(fields);
  }

  /** Creates the month's counter from the ledger, unless another replica did first. */
  async seed(accountId: string, period: Period): Promise<void> {
    const totals = await this.ledger.periodTotals(accountId, period.id);
    const pairs = Object.entries(totals.byOperation).flat();
    await this.redis.meterSeed(this.keys.counter(accountId, period.id), expiryOf(period), totals.used, ...pairs);
  }
}

function expiryOf(period: Period): number {
  return Math.floor(period.end.getTime() / 1000) + COUNTER_GRACE_S;
}

function countsOf(fields: Record<string, string>): { used: number; byOperation: Record<string, number> } {
  const byOperation: Record<string, number> = {};
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('op:') && Number(value) !== 0) byOperation[field.slice(3)] = Number(value);
  }
  return { used: Number(fields.used ?? 0), byOperation };
}
