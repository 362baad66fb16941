import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { refundEntryId, type LedgerEntry, type LedgerStore } from './ledger-entry';
import { MeterKeys } from './meter-keys';
import { ADMIT_SCRIPT, REFUND_SCRIPT, SEED_SCRIPT } from './meter-scripts';
import { periodAt, type Period } from './period';

/** A token bucket: `capacity` requests, refilled continuously over `windowMs`. */
export interface RatePolicy {
  /** Names the bucket and the `RateLimit-Policy` entry. */
  name: string;
  capacity: number;
  windowMs: number;
}

/** The bucket after this request, for the RateLimit headers. */
export interface RateState {
  policy: RatePolicy;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

export interface AdmitRequest {
  accountId: string;
  keyId: string | null;
  operation: string;
  /** CU to reserve: the most this request can cost. 0 rate-limits only. */
  cost: number;
  /** CU a month; null is unlimited. */
  allowance: number | null;
  policy: RatePolicy;
  /** The caller-visible x-request-id, kept in the ledger for support. */
  requestId: string;
}

/** CU reserved for one request, settled once its response is known. */
export interface Reservation {
  chargeId: string;
  accountId: string;
  keyId: string | null;
  operation: string;
  requestId: string;
  period: Period;
  reserved: number;
  allowance: number | null;
  /** The counter after the reservation. */
  used: number;
}

export type Admission =
  | { kind: 'admitted'; rate: RateState; reservation: Reservation | undefined }
  | { kind: 'rate_limited'; rate: RateState; retryAfterMs: number }
  | { kind: 'credit_exceeded'; rate: RateState; period: Period; used: number };

/** How the ledger's totals are read when a counter has to be rebuilt. */
export type PeriodTotalsSource = Pick<LedgerStore, 'periodTotals'>;

interface MeterCommands {
  meterAdmit(bucket: string, counter: string, outbox: string, ...args: (string | number)[]): Promise<number[]>;
  meterRefund(counter: string, outbox: string, ...args: (string | number)[]): Promise<number>;
  meterSeed(counter: string, ...args: (string | number)[]): Promise<number>;
}

/** Counters outlive their month by this much (for `accounts:show` and late refunds). */
const COUNTER_GRACE_S = 40 * 24 * 3600;

/**
 * The metering of docs/ARCHITECTURE.md ("Metering"): one script per request applies the rate limit
 * and reserves the request's CU against the account's monthly counter; `settle` gives back what
 * was not served. Every counter move is appended to the outbox by the same script, so the ledger
 * (LedgerPipeline) sees exactly the moves the counter saw. Redis errors propagate: the caller
 * fails closed.
 */
export class Meter {
  private readonly redis: Redis & MeterCommands;

  constructor(
    redis: Redis,
    readonly keys: MeterKeys,
    private readonly ledger: PeriodTotalsSource,
    private readonly now: () => number = Date.now,
  ) {
    defineMeterCommands(redis);
    this.redis = redis as Redis & MeterCommands;
  }

  async admit(request: AdmitRequest): Promise<Admission> {
    const at = this.now();
    const period = periodAt(at);
    const chargeId = randomUUID();
    const counter = this.keys.counter(request.accountId, period.id);
    const entry: LedgerEntry = {
      entryId: chargeId,
      chargeId,
      accountId: request.accountId,
      keyId: request.keyId,
      operation: request.operation,
      kind: 'charge',
      cu: request.cost,
      statusCode: null,
      requestId: request.requestId,
      period: period.id,
      at,
    };
    const args = [
      at,
      request.policy.capacity,
      request.policy.windowMs,
      request.cost,
      request.allowance ?? -1,
      request.operation,
      JSON.stringify(entry),
      expiryOf(period),
    ];
    const bucket = this.keys.bucket(request.policy.name, request.accountId);
    let reply = await this.redis.meterAdmit(bucket, counter, this.keys.outbox, ...args);
    if (reply[0] === 3) {
      await this.seed(request.accountId, period);
      reply = await this.redis.meterAdmit(bucket, counter, this.keys.outbox, ...args);
    }
    const [code, value = 0, remaining = 0, resetSeconds = 0] = reply;
    const rate: RateState = { policy: request.policy, remaining, resetSeconds };
    switch (code) {
      case 0:
        return {
          kind: 'admitted',
          rate,
          reservation:
            request.cost > 0
              ? {
                  chargeId,
                  accountId: request.accountId,
                  keyId: request.keyId,
                  operation: request.operation,
                  requestId: request.requestId,
                  period,
                  reserved: request.cost,
                  allowance: request.allowance,
                  used: value,
                }
              : undefined,
        };
      case 1:
        return { kind: 'rate_limited', rate, retryAfterMs: value };
      case 2:
        return { kind: 'credit_exceeded', rate, period, used: value };
      default:
        throw new Error(`metering: the counter ${counter} could not be seeded`);
    }
  }

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
      JSON.stringify(entry),
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
  private async seed(accountId: string, period: Period): Promise<void> {
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

/** Registers the scripts on a connection (EVALSHA, loading them on first use). */
export function defineMeterCommands(redis: Redis): void {
  if ('meterAdmit' in redis) return;
  redis.defineCommand('meterAdmit', { numberOfKeys: 3, lua: ADMIT_SCRIPT });
  redis.defineCommand('meterRefund', { numberOfKeys: 2, lua: REFUND_SCRIPT });
  redis.defineCommand('meterSeed', { numberOfKeys: 1, lua: SEED_SCRIPT });
}
