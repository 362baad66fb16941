import type { Redis } from 'ioredis';
import { chargeId } from './charge-id';
import { refundEntryId, type LedgerEntry, type LedgerStore } from './ledger-entry';
import { COPY_NULL, copyText, ledgerLine, timestampOf } from './ledger-line';
import { MeterKeys } from './meter-keys';
import { ADMIT_SCRIPT, OUTBOX_CLAIM_SCRIPT, REFUND_SCRIPT, SEED_SCRIPT } from './meter-scripts';
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
  meterAdmit(...keysAndArgs: (string | number)[]): Promise<(number | string)[]>;
  meterRefund(counter: string, outbox: string, ...args: (string | number)[]): Promise<number>;
  meterSeed(counter: string, ...args: (string | number)[]): Promise<number>;
}

/** Counters outlive their month by this much (for `accounts:show` and late refunds). */
const COUNTER_GRACE_S = 40 * 24 * 3600;
/** Requests of one script call at most. */
const BATCH_MAX = 256;
/** A lease of rate-limit tokens for free requests is used within this long, or lost. */
const LEASE_MS = 1_000;
const LEASE_MAX = 1_000;
const LEASES_KEPT = 10_000;
/** How long the last answer for a bucket is trusted to let a read run ahead of its admission. */
const OUTLOOK_MS = 1_000;
/**
 * How long the admissions of requests running ahead may wait for others to join their script call
 * (a waiting request sends it at the end of its turn): their services take longer than this, and
 * larger calls mean fewer of them (under the metering bench's load, 23 requests a call instead of 15).
 */
const AHEAD_BATCH_MS = 1;

/**
 * Tokens a free (0 CU) request takes from its bucket for the next ones of the same account on this
 * replica: a twentieth of the limit, at most 1,000, so a free plan's 10 a minute stays exact (1) and
 * a high limit costs one script call per many requests (at 15,000 free requests a second, a lease
 * of 100 left a fifth of them waiting on a script call). Unused tokens expire: the limit can only
 * come out stricter, never looser.
 */
function leaseSize(policy: RatePolicy): number {
  return Math.max(1, Math.min(LEASE_MAX, Math.floor(policy.capacity / 20)));
}

interface Lease {
  tokens: number;
  expiresAt: number;
  /** Tokens the bucket had left when the lease was taken. */
  bucketLeft: number;
  resetSeconds: number;
}

/**
 * What the last answer for a bucket left (tokens, and the account's CU; null: unlimited), and the
 * requests running ahead of their admission against it (see `admitAhead`).
 */
interface Outlook {
  tokens: number;
  cu: number | null;
  at: number;
  ahead: number;
  aheadCu: number;
}

/**
 * One item of a script call: consecutive charged requests of one account with the same operation,
 * cost and limits (each with its own outbox entry), or the free requests of one bucket together.
 */
interface BatchItem {
  bucket: string;
  counter: string;
  requests: PendingAdmission[];
  cost: number;
  take: number;
  operation: string;
  /** The charged requests' outbox entries, one per request (none for free requests). */
  entries: string[];
}

interface PendingAdmission {
  request: AdmitRequest;
  /** Its request is being served meanwhile: its answer may wait for a larger script call. */
  ahead: boolean;
  at: number;
  period: Period;
  chargeId: string;
  resolve(admission: Admission): void;
  reject(error: unknown): void;
}

/**
 * The metering of docs/decisions/0004: one script call applies the rate limit and reserves the CU of
 * every request this replica read in one turn of its event loop, in order, each against its
 * account's monthly counter; `settle` gives back what was not served. Every counter move is
 * appended to the outbox by the same script, so the ledger (LedgerPipeline) sees exactly the moves
 * the counter saw. Free requests draw rate-limit tokens from a short local lease. Redis errors
 * propagate: the caller fails closed.
 */
export class Meter {
  private readonly redis: Redis & MeterCommands;
  private queue: PendingAdmission[] = [];
  /** A flush is due at the end of this turn of the event loop. */
  private scheduled = false;
  /** A flush is due within AHEAD_BATCH_MS: only requests running ahead are queued. */
  private timer: NodeJS.Timeout | undefined;
  private readonly leases = new Map<string, Lease>();
  private readonly outlooks = new Map<string, Outlook>();

  constructor(
    redis: Redis,
    readonly keys: MeterKeys,
    private readonly ledger: PeriodTotalsSource,
    private readonly now: () => number = Date.now,
    private readonly aheadBatchMs = AHEAD_BATCH_MS,
  ) {
    defineMeterCommands(redis);
    this.redis = redis as Redis & MeterCommands;
  }

  /** Synchronous when a free request is admitted from this replica's lease (no Redis call). */
  admit(request: AdmitRequest): Admission | Promise<Admission> {
    const at = this.now();
    if (request.cost === 0) {
      const leased = this.fromLease(request, at);
      if (leased !== undefined) return leased;
    }
    return this.queued(request, at);
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
    const outlook = this.outlooks.get(this.keys.bucket(request.policy.name, request.accountId));
    const age = outlook === undefined ? -1 : at - outlook.at;
    if (
      outlook === undefined ||
      age < 0 || // the clock went back: trust nothing
      age >= OUTLOOK_MS ||
      outlook.tokens < outlook.ahead + 1 ||
      (outlook.cu !== null && outlook.cu < outlook.aheadCu + request.cost)
    ) {
      return undefined;
    }
    outlook.ahead += 1;
    outlook.aheadCu += request.cost;
    const release = () => {
      outlook.ahead -= 1;
      outlook.aheadCu -= request.cost;
    };
    const admission = this.queued(request, at, true);
    admission.then(release, release);
    return admission;
  }

  private queued(request: AdmitRequest, at: number, ahead = false): Promise<Admission> {
    return new Promise<Admission>((resolve, reject) =>
      this.enqueue({ request, at, period: periodAt(at), chargeId: request.cost > 0 ? chargeId(at) : '', ahead, resolve, reject }),
    );
  }

  private fromLease(request: AdmitRequest, at: number): Admission | undefined {
    const lease = this.leases.get(this.keys.bucket(request.policy.name, request.accountId));
    if (lease === undefined || lease.tokens <= 0 || at >= lease.expiresAt) return undefined;
    lease.tokens -= 1;
    const rate: RateState = { policy: request.policy, remaining: lease.bucketLeft + lease.tokens, resetSeconds: lease.resetSeconds };
    return { kind: 'admitted', rate, reservation: undefined };
  }

  /** Sends what is queued, in script calls of at most BATCH_MAX items. */
  private flush(): void {
    this.scheduled = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.queue;
    this.queue = [];
    const items: BatchItem[] = [];
    const free = new Map<string, BatchItem>();
    // the last item of each bucket: a charged request joins it when nothing came between
    const last = new Map<string, BatchItem>();
    for (const p of pending) {
      const { request } = p;
      const bucket = this.keys.bucket(request.policy.name, request.accountId);
      if (request.cost === 0) {
        let item = free.get(bucket);
        if (item !== undefined) {
          item.requests.push(p);
          item.take = Math.max(item.take, item.requests.length);
        } else {
          item = {
            bucket,
            counter: this.keys.counter(request.accountId, p.period.id),
            requests: [p],
            cost: 0,
            take: leaseSize(request.policy),
            operation: '',
            entries: [],
          };
          free.set(bucket, item);
          items.push(item);
        }
        last.set(bucket, item);
        continue;
      }
      const entry = chargeLine(p);
      const previous = last.get(bucket);
      if (previous !== undefined && sameCharge(previous, p)) {
        previous.requests.push(p);
        previous.entries.push(entry);
        continue;
      }
      const item: BatchItem = {
        bucket,
        counter: this.keys.counter(request.accountId, p.period.id),
        requests: [p],
        cost: request.cost,
        take: 1,
        operation: request.operation,
        entries: [entry],
      };
      last.set(bucket, item);
      items.push(item);
    }
    for (let i = 0; i < items.length; i += BATCH_MAX) void this.run(items.slice(i, i + BATCH_MAX));
  }

  private async run(items: BatchItem[]): Promise<void> {
    const keys: string[] = [this.keys.outbox];
    const args: (string | number)[] = [this.now()];
    for (const item of items) {
      const { policy, allowance } = item.requests[0]!.request;
      keys.push(item.bucket, item.counter);
      args.push(
        policy.capacity,
        policy.windowMs,
        item.cost,
        allowance ?? -1,
        item.take,
        item.operation,
        item.entries.length,
        item.entries.join(''),
      );
    }
    let reply: (number | string)[];
    try {
      reply = await this.redis.meterAdmit(keys.length, ...keys, ...args);
    } catch (error) {
      for (const item of items) for (const p of item.requests) p.reject(error);
      return;
    }
    // 4 values per item
    for (let i = 0, at = 0; i < items.length; i++, at += 4) {
      const item = items[i]!;
      if (item.cost === 0) this.answerFree(item, reply, at);
      else if (reply[at] === -1) this.seedThenRetry(item.requests);
      else this.answerCharged(item, reply, at);
    }
  }

  /** The counter was not seeded: seed it from the ledger (once), then ask again for each. */
  private seedThenRetry(requests: PendingAdmission[]): void {
    const first = requests[0]!;
    this.seed(first.request.accountId, first.period).then(
      () => {
        for (const p of requests) this.enqueue(p);
      },
      (error: unknown) => {
        for (const p of requests) p.reject(error);
      },
    );
  }

  /**
   * Each request of a charged item, answered as if it had come alone: in order, a request takes a
   * token while one is left (`passed` of them), and of those the first `admitted` are charged.
   */
  private answerCharged(item: BatchItem, reply: (number | string)[], at: number): void {
    const passed = Number(reply[at]);
    const admitted = Number(reply[at + 1]);
    const used = Number(reply[at + 2]);
    const tokens = Number(reply[at + 3]);
    const { cost, requests } = item;
    const { policy, allowance } = requests[0]!.request;
    this.look(item.bucket, tokens - passed, allowance === null ? null : allowance - used - admitted * cost);
    const rate = (left: number): RateState => ({
      policy,
      remaining: Math.max(Math.floor(left), 0),
      resetSeconds: resetSecondsOf(policy, left),
    });
    for (let r = 0; r < requests.length; r++) {
      const p = requests[r]!;
      if (r >= passed) {
        const left = tokens - passed;
        p.resolve({ kind: 'rate_limited', rate: rate(left), retryAfterMs: Math.ceil(((1 - left) * policy.windowMs) / policy.capacity) });
      } else if (r >= admitted) {
        p.resolve({ kind: 'credit_exceeded', rate: rate(tokens - r - 1), period: p.period, used: used + admitted * cost });
      } else {
        const { request } = p;
        p.resolve({
          kind: 'admitted',
          rate: rate(tokens - r - 1),
          reservation: {
            chargeId: p.chargeId,
            accountId: request.accountId,
            keyId: request.keyId,
            operation: request.operation,
            requestId: request.requestId,
            period: p.period,
            reserved: cost,
            allowance: request.allowance,
            used: used + (r + 1) * cost,
          },
        });
      }
    }
  }

  /** Free requests: `value` tokens taken for them; what is left over becomes this replica's lease. */
  private answerFree(item: BatchItem, reply: (number | string)[], at: number): void {
    const code = Number(reply[at]);
    const value = Number(reply[at + 1]);
    const remaining = Number(reply[at + 2]);
    const resetSeconds = Number(reply[at + 3]);
    const first = item.requests[0]!;
    const { request } = first;
    const rate: RateState = { policy: request.policy, remaining, resetSeconds };
    if (code === 1) {
      for (const p of item.requests) p.resolve({ kind: 'rate_limited', rate, retryAfterMs: value });
      return;
    }
    const served = Math.min(value, item.requests.length);
    item.requests.forEach((p, i) => {
      if (i < served) p.resolve({ kind: 'admitted', rate: { ...rate, remaining: remaining + value - served }, reservation: undefined });
      else p.resolve({ kind: 'rate_limited', rate, retryAfterMs: Math.ceil(request.policy.windowMs / request.policy.capacity) });
    });
    if (value > served) {
      if (this.leases.size >= LEASES_KEPT) sweep(this.leases, (lease) => lease.expiresAt <= first.at || lease.tokens <= 0);
      // Two calls can be out for one bucket (its lease ran out during a turn, then again during the
      // next): their tokens add up, and expire with the older ones, so none is used later than its own lease allowed.
      const held = this.leases.get(item.bucket);
      const kept = held !== undefined && held.tokens > 0 && first.at < held.expiresAt ? held : undefined;
      this.leases.set(item.bucket, {
        tokens: value - served + (kept?.tokens ?? 0),
        expiresAt: Math.min(first.at + LEASE_MS, kept?.expiresAt ?? Infinity),
        bucketLeft: remaining,
        resetSeconds,
      });
    }
  }

  /** Queues an admission for the next script call, sent once this turn of the event loop ends. */
  private enqueue(p: PendingAdmission): void {
    this.queue.push(p);
    if (this.scheduled) return;
    if (!p.ahead) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.aheadBatchMs);
    }
  }

  /** Keeps what an answer left for its bucket; the requests running ahead stay counted. */
  private look(bucket: string, tokens: number, cu: number | null): void {
    const at = this.now();
    const outlook = this.outlooks.get(bucket);
    if (outlook !== undefined) {
      outlook.tokens = tokens;
      outlook.cu = cu;
      outlook.at = at;
      return;
    }
    if (this.outlooks.size >= LEASES_KEPT) sweep(this.outlooks, (old) => old.ahead === 0 && at - old.at >= OUTLOOK_MS);
    this.outlooks.set(bucket, { tokens, cu, at, ahead: 0, aheadCu: 0 });
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
  private async seed(accountId: string, period: Period): Promise<void> {
    const totals = await this.ledger.periodTotals(accountId, period.id);
    const pairs = Object.entries(totals.byOperation).flat();
    await this.redis.meterSeed(this.keys.counter(accountId, period.id), expiryOf(period), totals.used, ...pairs);
  }
}

/** Drops the entries of a per-bucket map that are of no more use (it is kept to LEASES_KEPT or so). */
function sweep<V>(map: Map<string, V>, stale: (value: V) => boolean): void {
  for (const [key, value] of map) if (stale(value)) map.delete(key);
}

/** Whether a charged request may join `item` in the script call: the same charge, counter and limits. */
function sameCharge(item: BatchItem, p: PendingAdmission): boolean {
  const first = item.requests[0]!;
  const a = first.request;
  const b = p.request;
  return (
    item.cost > 0 &&
    item.requests.length < BATCH_MAX &&
    first.period.id === p.period.id &&
    a.operation === b.operation &&
    a.cost === b.cost &&
    a.allowance === b.allowance &&
    a.policy.capacity === b.policy.capacity &&
    a.policy.windowMs === b.policy.windowMs
  );
}

/**
 * The charge's outbox entry: a `LedgerEntry` as its COPY line (ledger-line.ts), the row its ledger
 * gets. Written out field by field, as `ledgerLine` writes it, on the hot path (one per request);
 * every string that did not come from this function goes through `copyText`.
 */
function chargeLine(p: PendingAdmission): string {
  const { request } = p;
  const id = p.chargeId; // a UUID (charge-id.ts)
  const keyId = request.keyId === null ? COPY_NULL : copyText(request.keyId);
  return (
    `${id}\t${id}\t${copyText(request.accountId)}\t${keyId}\t${copyText(request.operation)}\tcharge\t${request.cost}\t${COPY_NULL}\t` +
    `${copyText(request.requestId)}\t${p.period.id}\t${timestampOf(p.at)}\n`
  );
}

/** Seconds until a bucket with `tokens` left is full again. */
function resetSecondsOf(policy: RatePolicy, tokens: number): number {
  return Math.ceil(((policy.capacity - tokens) * policy.windowMs) / policy.capacity / 1000);
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
  redis.defineCommand('meterAdmit', { lua: ADMIT_SCRIPT }); // numkeys first: a batch has 1 + 2 per item
  redis.defineCommand('meterRefund', { numberOfKeys: 2, lua: REFUND_SCRIPT });
  redis.defineCommand('meterSeed', { numberOfKeys: 1, lua: SEED_SCRIPT });
  redis.defineCommand('outboxClaim', { numberOfKeys: 1, lua: OUTBOX_CLAIM_SCRIPT }); // the LedgerPipeline's
}
