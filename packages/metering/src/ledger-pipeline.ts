import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { toLedgerRow, type LedgerStore } from './ledger-entry';
import { parseLedgerLines } from './ledger-line';
import { LEDGER_QUEUE, OUTBOX_GROUP, type MeterKeys } from './meter-keys';
import { defineMeterCommands } from './meter-commands';

export interface LedgerPipelineOptions {
  /** A connection for the outbox (stream reads; not blocking). */
  redis: Redis;
  /** BullMQ's connection options (it opens its own, with maxRetriesPerRequest: null). */
  connection: ConnectionOptions;
  keys: MeterKeys;
  store: Pick<LedgerStore, 'insert' | 'insertLines'>;
  /** This process's name in the outbox's consumer group. */
  consumer: string;
  /** How often the outbox is moved into the queue. */
  flushMs: number;
  /** Outbox messages (each the entries of one script call) per queue job (one COPY each). */
  batchMax: number;
  /** Entries another consumer read this long ago and never acknowledged are taken over (it died). */
  claimIdleMs: number;
  /** A job whose writer stops renewing its lock this long (its gateway died) is taken over. */
  lockMs: number;
  warn(message: string): void;
}

/**
 * A batch of outbox messages: the ids of consecutive messages still in the outbox (read there by
 * the writer, which deletes them once written), or the messages themselves (entries taken over
 * from a dead consumer, which need not be consecutive; they leave the outbox once queued).
 */
type LedgerJob = { range: [first: string, last: string] } | { entries: string[] };

interface OutboxCommands {
  outboxClaim(outbox: string, group: string, consumer: string, count: number): Promise<string[]>;
}

type OutboxMessage = [id: string, fields: string[]];

/** Retry delays: 250 ms doubling, at most 10 s; a job is never given up (Postgres may be down for long). */
const RETRY_BASE_MS = 250;
const RETRY_MAX_MS = 10_000;
const ATTEMPTS = Number.MAX_SAFE_INTEGER;

/**
 * Moves the outbox (a Redis stream the metering script appends to, in the same step as the counter)
 * into Postgres through a BullMQ queue: batched, retried with backoff while Postgres is away, and
 * idempotent by entry id, so an entry moved twice (a gateway killed between queueing and
 * acknowledging it) is written once. A job names a run of consecutive outbox messages; they stay
 * in the outbox until its worker has written them, so the entries cross Redis and Node once.
 * Entries a dead replica had read are taken over after `claimIdleMs` by any replica, the restarted
 * one included; nothing is dropped.
 */
export class LedgerPipeline {
  private readonly queue: Queue<LedgerJob>;
  private worker: Worker<LedgerJob> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private closed = false;
  private readonly redis: Redis & OutboxCommands;

  constructor(private readonly options: LedgerPipelineOptions) {
    this.queue = new Queue<LedgerJob>(LEDGER_QUEUE, { connection: options.connection, prefix: options.keys.queuePrefix });
    defineMeterCommands(options.redis);
    this.redis = options.redis as Redis & OutboxCommands;
  }

  /** Creates the consumer group, starts the writer and the pump. */
  async start(): Promise<void> {
    if (this.worker !== undefined || this.closed) return;
    await this.createGroup();
    this.worker = new Worker<LedgerJob>(LEDGER_QUEUE, (job) => this.process(job.data), {
      connection: this.options.connection,
      prefix: this.options.keys.queuePrefix,
      concurrency: 1,
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.lockMs,
      // A job taken over from dead writers any number of times is still written, never failed.
      maxStalledCount: ATTEMPTS,
      settings: { backoffStrategy: (attemptsMade: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attemptsMade, 20)) },
    });
    this.worker.on('failed', (_job, error) => this.options.warn(`ledger write failed, retrying: ${error.message}`));
    this.worker.on('error', (error) => this.options.warn(`ledger worker: ${error.message}`));
    this.timer = setInterval(() => void this.pump(), this.options.flushMs);
    this.timer.unref();
  }

  /** Moves what the outbox holds into the queue (one run at a time); resolves when done. */
  pump(): Promise<void> {
    this.pumping ??= this.pumpAll()
      .catch((error: unknown) => this.options.warn(`ledger outbox: ${(error as Error).message}`))
      .finally(() => (this.pumping = undefined));
    return this.pumping;
  }

  /** True when every entry appended so far is in Postgres. */
  async drained(): Promise<boolean> {
    const { redis, keys } = this.options;
    const [length, counts] = await Promise.all([
      redis.xlen(keys.outbox),
      this.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children'),
    ]);
    return length === 0 && Object.values(counts).every((n) => n === 0);
  }

  /** Stops the pump after a last run, then the writer (its current job finishes). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.pump();
    await this.worker?.close();
    await this.queue.close();
  }

  /** The outbox's consumer group (and the stream), unless they exist. */
  private async createGroup(): Promise<void> {
    const { redis, keys } = this.options;
    try {
      await redis.xgroup('CREATE', keys.outbox, OUTBOX_GROUP, '0', 'MKSTREAM');
    } catch (error) {
      if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
    }
  }

  private async pumpAll(): Promise<void> {
    try {
      await this.pumpBatches();
    } catch (error) {
      // A Redis that came back empty has no group: make it again (the next run moves the entries).
      if (String((error as Error).message).includes('NOGROUP')) await this.createGroup();
      else throw error;
    }
  }

  private async pumpBatches(): Promise<void> {
    const { keys, consumer, batchMax, claimIdleMs } = this.options;
    // Entries a dead consumer had read: taken over and queued again (the insert is idempotent).
    const claimed = (await this.redis.xautoclaim(keys.outbox, OUTBOX_GROUP, consumer, claimIdleMs, '0-0', 'COUNT', batchMax)) as [
      string,
      OutboxMessage[],
    ];
    if (claimed[1].length > 0) await this.enqueueMessages(claimed[1]);
    for (;;) {
      // Only the ids travel: the writer reads the entries from the outbox itself.
      const ids = await this.redis.outboxClaim(keys.outbox, OUTBOX_GROUP, consumer, batchMax);
      if (ids.length === 0) return;
      await this.add({ range: [ids[0]!, ids[ids.length - 1]!] });
      await this.redis.xack(keys.outbox, OUTBOX_GROUP, ...ids);
      if (ids.length < batchMax) return;
    }
  }

  private async add(job: LedgerJob): Promise<void> {
    await this.queue.add('entries', job, { attempts: ATTEMPTS, backoff: { type: 'custom' }, removeOnComplete: true, removeOnFail: false });
  }

  /** One job carrying the messages, then they leave the outbox. */
  private async enqueueMessages(messages: OutboxMessage[]): Promise<void> {
    const entries = entriesOf(messages);
    if (entries.length > 0) await this.add({ entries });
    const ids = messages.map(([id]) => id);
    await this.redis
      .multi()
      .xack(this.options.keys.outbox, OUTBOX_GROUP, ...ids)
      .xdel(this.options.keys.outbox, ...ids)
      .exec();
  }

  /**
   * A job's entries into Postgres; a range's messages then leave the outbox. A range is read as
   * bytes and handed to Postgres as they are: no text decoded into, or encoded out of, the
   * gateway's heap (a job holds a few hundred kB of lines).
   */
  private async process(job: LedgerJob): Promise<void> {
    if ('entries' in job) return this.write(job.entries.map((entries) => Buffer.from(entries)));
    const { outbox } = this.options.keys;
    // Messages already gone were written by an earlier attempt (or taken over and written by another job).
    const messages = await this.redis.xrangeBuffer(outbox, job.range[0], job.range[1]);
    if (messages.length === 0) return;
    await this.write(entriesOf(messages));
    await this.redis.xdel(outbox, ...messages.map(([id]) => id));
  }

  /**
   * Each outbox message holds the entries of one script call as COPY lines; the job's messages are
   * copied into Postgres as one text, which Postgres parses. Only the metering writes them, so that
   * fails only on a line the store refuses: then the job is written entry by entry after a check,
   * and what fails it is logged and skipped, never retried forever.
   */
  private async write(messages: Buffer[]): Promise<void> {
    // every message ends in a newline (a message cut short by hand is checked below)
    const lines = Buffer.concat(messages);
    if (lines.length === 0) return;
    try {
      await this.options.store.insertLines(lines);
    } catch {
      // Postgres away: this fails too, and the job is retried.
      await this.writeChecked(messages);
    }
  }

  private async writeChecked(messages: Buffer[]): Promise<void> {
    const { entries, malformed } = parseLedgerLines(messages.map((message) => message.toString()).join('\n'));
    for (const line of malformed) this.options.warn(`ledger: skipped a malformed outbox entry: ${line.slice(0, 200)}`);
    await this.options.store.insert(entries.map(toLedgerRow));
  }
}

/** The messages' entries (each message's lines), leaving out messages that have none. */
function entriesOf<T extends string | Buffer>(messages: [id: T, fields: T[]][]): T[] {
  const entries: T[] = [];
  for (const [, fields] of messages) {
    const at = fields.findIndex((field) => field.toString() === 'e');
    const value = at < 0 ? undefined : fields[at + 1];
    if (value !== undefined && value.length > 0) entries.push(value);
  }
  return entries;
}
