import { answerCharged, answerFree } from './admission-answers';
import { chargeId } from './charge-id';
import type { FreeLeases } from './free-leases';
import { leaseSize } from './free-leases';
import { COPY_NULL, copyText, timestampOf } from './ledger-line';
import type { Admission, AdmitRequest } from './meter';
import type { MeterCommands } from './meter-commands';
import type { MeterKeys } from './meter-keys';
import { periodAt, type Period } from './period';
import type { RunAhead } from './run-ahead';

/** Requests of one script call at most. */
const BATCH_MAX = 256;
/**
 * How long the admissions of requests running ahead may wait for others to join their script call
 * (a waiting request sends it at the end of its turn): their services take longer than this, and
 * larger calls mean fewer of them (under the metering bench's load, 23 requests a call instead of 15).
 */
export const AHEAD_BATCH_MS = 1;

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
 * One item of a script call: consecutive charged requests of one account with the same operation,
 * cost and limits (each with its own outbox entry), or the free requests of one bucket together.
 */
export interface BatchItem {
  bucket: string;
  counter: string;
  requests: PendingAdmission[];
  cost: number;
  take: number;
  operation: string;
  /** The charged requests' outbox entries, one per request (none for free requests). */
  entries: string[];
}

export interface AdmissionBatchesOptions {
  redis: Pick<MeterCommands, 'meterAdmit'>;
  keys: MeterKeys;
  now: () => number;
  aheadBatchMs: number;
  leases: FreeLeases;
  runAhead: RunAhead;
  /** Creates an account's counter for the month from the ledger (before its requests are asked again). */
  seed(accountId: string, period: Period): Promise<void>;
}

/**
 * The admissions this replica read in one turn of its event loop, sent as one script call (or one
 * per BATCH_MAX items) at the end of the turn; those of requests running ahead wait up to
 * AHEAD_BATCH_MS for others to join them.
 */
export class AdmissionBatches {
  private queue: PendingAdmission[] = [];
  /** A flush is due at the end of this turn of the event loop. */
  private scheduled = false;
  /** A flush is due within AHEAD_BATCH_MS: only requests running ahead are queued. */
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: AdmissionBatchesOptions) {}

  /** The request's admission, asked in the next script call. */
  admit(request: AdmitRequest, at: number, ahead = false): Promise<Admission> {
    return new Promise<Admission>((resolve, reject) =>
      this.enqueue({ request, at, period: periodAt(at), chargeId: request.cost > 0 ? chargeId(at) : '', ahead, resolve, reject }),
    );
  }

  /** Sends what is queued, in script calls of at most BATCH_MAX items. */
  private flush(): void {
    this.scheduled = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    const { keys } = this.options;
    const pending = this.queue;
    this.queue = [];
    const items: BatchItem[] = [];
    const free = new Map<string, BatchItem>();
    // the last item of each bucket: a charged request joins it when nothing came between
    const last = new Map<string, BatchItem>();
    for (const p of pending) {
      const { request } = p;
      const bucket = keys.bucket(request.policy.name, request.accountId);
      if (request.cost === 0) {
        let item = free.get(bucket);
        if (item !== undefined) {
          item.requests.push(p);
          item.take = Math.max(item.take, item.requests.length);
        } else {
          item = {
            bucket,
            counter: keys.counter(request.accountId, p.period.id),
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
        counter: keys.counter(request.accountId, p.period.id),
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
    const { redis, keys: meterKeys, now, leases, runAhead } = this.options;
    const keys: string[] = [meterKeys.outbox];
    const args: (string | number)[] = [now()];
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
      reply = await redis.meterAdmit(keys.length, ...keys, ...args);
    } catch (error) {
      for (const item of items) for (const p of item.requests) p.reject(error);
      return;
    }
    // 4 values per item
    for (let i = 0, at = 0; i < items.length; i++, at += 4) {
      const item = items[i]!;
      if (item.cost === 0) answerFree(item, reply, at, leases);
      else if (reply[at] === -1) this.seedThenRetry(item.requests);
      else answerCharged(item, reply, at, (bucket, tokens, cu) => runAhead.look(bucket, tokens, cu, now()));
    }
  }

  /** The counter was not seeded: seed it from the ledger (once), then ask again for each. */
  private seedThenRetry(requests: PendingAdmission[]): void {
    const first = requests[0]!;
    this.options.seed(first.request.accountId, first.period).then(
      () => {
        for (const p of requests) this.enqueue(p);
      },
      (error: unknown) => {
        for (const p of requests) p.reject(error);
      },
    );
  }

  /** Queues an admission for the next script call, sent once this turn of the event loop ends. */
  private enqueue(p: PendingAdmission): void {
    this.queue.push(p);
    if (this.scheduled) return;
    if (!p.ahead) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.flush(), this.options.aheadBatchMs);
    }
  }
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
