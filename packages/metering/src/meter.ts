import type { Redis } from 'ioredis';
import { AdmissionBatches, AHEAD_BATCH_MS } from './admission-batches';
import { FreeLeases } from './free-leases';
import { defineMeterCommands, type MeterCommands } from './meter-commands';
import type { MeterKeys } from './meter-keys';
import { MonthlyCounter, type PeriodTotalsSource } from './monthly-counter';
import type { Period } from './period';
import { RunAhead } from './run-ahead';

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

/**
 * The metering of docs/decisions/0004: one script call applies the rate limit and reserves the CU of
 * every request this replica read in one turn of its event loop, in order, each against its
 * account's monthly counter (admission-batches.ts); `settle` gives back what was not served
 * (monthly-counter.ts). Every counter move is appended to the outbox by the same script, so the
 * ledger (LedgerPipeline) sees exactly the moves the counter saw. Free requests draw rate-limit
 * tokens from a short local lease (free-leases.ts). Redis errors propagate: the caller fails closed.
 */
export class Meter {
  private readonly leases = new FreeLeases();
  private readonly runAhead = new RunAhead();
  private readonly batches: AdmissionBatches;
  private readonly counter: MonthlyCounter;

  constructor(
    redis: Redis,
    readonly keys: MeterKeys,
    ledger: PeriodTotalsSource,
    private readonly now: () => number = Date.now,
    aheadBatchMs = AHEAD_BATCH_MS,
  ) {
    defineMeterCommands(redis);
    const commands = redis as Redis & MeterCommands;
    this.counter = new MonthlyCounter(commands, keys, ledger, now);
    this.batches = new AdmissionBatches({
      redis: commands,
      keys,
      now,
      aheadBatchMs,
      leases: this.leases,
      runAhead: this.runAhead,
      seed: (accountId, period) => this.counter.seed(accountId, period),
    });
  }

  /** Synchronous when a free request is admitted from this replica's lease (no Redis call). */
  admit(request: AdmitRequest): Admission | Promise<Admission> {
    const at = this.now();
    if (request.cost === 0) {
      const leased = this.leases.take(this.keys.bucket(request.policy.name, request.accountId), request.policy, at);
      if (leased !== undefined) return leased;
    }
    return this.batches.admit(request, at);
  }

  /**
   * A charged request's admission, when the request may be served while the admission is out (the
   * caller releases its answer only once admitted, and drops it when refused): the last answer for
   * its bucket, under a second old, left a token and its CU for it and for every request already
   * let ahead. So a refused request that ran ahead can only have met tokens or CU spent meanwhile by
   * another replica, and an account at its limit is never served ahead. Undefined: `admit` and wait.
   */
  admitAhead(request: AdmitRequest): Promise<Admission> | undefined {
    if (request.cost === 0) return undefined;
    const at = this.now();
    const release = this.runAhead.letAhead(this.keys.bucket(request.policy.name, request.accountId), request.cost, at);
    if (release === undefined) return undefined;
    const admission = this.batches.admit(request, at, true);
    admission.then(release, release);
    return admission;
  }

  /**
   * Gives back what was reserved and not served (`served` CU of the reservation stand). Returns
   * the counter afterwards (null when it is gone and will be rebuilt from the ledger).
   */
  settle(reservation: Reservation, served: number, statusCode: number): Promise<number | null> {
    return this.counter.settle(reservation, served, statusCode);
  }

  /** The account's CU this month, per operation (the counter, rebuilt from the ledger if gone). */
  usage(accountId: string): Promise<{ period: Period; used: number; byOperation: Record<string, number> }> {
    return this.counter.usage(accountId);
  }

  /** The counter as it is in Redis, without rebuilding it (null when there is none). */
  peek(accountId: string, period: string): Promise<{ used: number; byOperation: Record<string, number> } | null> {
    return this.counter.peek(accountId, period);
  }
}
