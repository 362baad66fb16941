import { Redis } from 'ioredis';
import { cacheRedisOptions, closeRedis } from './cache-redis';

/** Fields kept in this process (a verdict is about 1 KB). */
const MAX_KEPT = 10_000;
/**
 * A kept field is read again from Redis after this long, whatever Redis said: a bound on what a
 * lost invalidation could cost, not the copy's freshness (Redis's invalidations are that). Clients
 * that cycle through many wallets come back to one after seconds, so it is not shorter.
 */
const MAX_AGE_MS = 10_000;
const INVALIDATE = '__redis__:invalidate';

export interface TrackedCopyLogger {
  warn(message: string): void;
}

interface Kept {
  value: string;
  at: number;
}

/**
 * Hash fields read from Redis and kept in this process, so a repeated read asks Redis nothing
 * (issue 37: a warm score costs what a cache hit should). Redis itself says when a kept field
 * may have changed (server-assisted client-side caching, `CLIENT TRACKING ... REDIRECT`): it
 * remembers the keys read on `reads` and sends each key that is written, deleted, expired or
 * evicted afterwards, by anyone, to `invalidations`; that key is dropped here. So no writer has to
 * announce anything: another replica, another service or a hand-made `DEL` are all seen.
 *
 * What keeps the copy honest:
 * - a read's answer is kept only if no invalidation and no reconnection came while it was out
 *   (the two arrive on different connections, in no guaranteed order);
 * - while either connection is down, or tracking could not be turned on (a Redis before 6, a proxy
 *   that refuses `CLIENT`), nothing is kept and every read goes to Redis;
 * - a kept field is read again after MAX_AGE_MS (10 s), and at most MAX_KEPT are kept.
 */
export class TrackedFieldCopy {
  /** By key, then field: an invalidation names a key. */
  private readonly kept = new Map<string, Map<string, Kept>>();
  private armed = false;
  /** Moves on every invalidation and every (re)arming: a read that saw it move keeps nothing. */
  private epoch = 0;
  /** The invalidations' connection's client id once it is subscribed (until it closes). */
  private subscribedId: number | undefined;
  /** Reads out to Redis, by key and field, with the epoch they left in. */
  private readonly reading = new Map<string, { epoch: number; value: Promise<string | null> }>();
  /** Armings run one at a time: both connections becoming ready at once must not race. */
  private arming: Promise<void> = Promise.resolve();

  private constructor(
    private readonly reads: Redis,
    private readonly invalidations: Redis,
    private readonly logger: TrackedCopyLogger,
    private readonly now: () => number,
  ) {
    invalidations.on('messageBuffer', (channel: Buffer, keys: Buffer[] | Buffer | null) => {
      if (channel.toString() !== INVALIDATE) return;
      this.epoch += 1;
      // null: the whole database was flushed
      if (keys === null) this.kept.clear();
      else for (const key of Array.isArray(keys) ? keys : [keys]) this.kept.delete(key.toString());
    });
    invalidations.on('close', () => (this.subscribedId = undefined));
    for (const connection of [reads, invalidations]) {
      connection.on('close', () => this.disarm());
      connection.on('ready', () => {
        this.arming = this.arming.then(() => this.arm());
      });
    }
  }

  /** Two connections to `url`: the reads (tracked) and the one their invalidations are sent to. */
  static open(url: string, service: string, logger: TrackedCopyLogger, now: () => number = Date.now): TrackedFieldCopy {
    const reads = new Redis(url, { ...cacheRedisOptions(`credit-${service}-tracked`), enableAutoPipelining: true });
    // RESP2: Redis sends the invalidations to it as Pub/Sub messages (ioredis drops RESP3 `invalidate` pushes)
    const invalidations = new Redis(url, {
      ...cacheRedisOptions(`credit-${service}-invalidations`),
      protocol: 2,
      autoResubscribe: false,
    });
    for (const connection of [reads, invalidations]) connection.on('error', () => undefined);
    return new TrackedFieldCopy(reads, invalidations, logger, now);
  }

  /** Whether reads are being kept (both connections up, tracking on). */
  get keeping(): boolean {
    return this.armed;
  }

  /** `field` of the hash at `key` if it is kept here and fresh, with no promise; else undefined (ask `hgetMany`). */
  peek(key: string, field: string): string | undefined {
    return this.fresh(key, field, this.now());
  }

  /**
   * `field` of each hash at `keys` (null where absent): the kept ones from here, the others in one
   * pipeline. A field already being read, with nothing written or invalidated since that read
   * left, joins it: a burst of requests for a wallet whose kept verdict just aged out asks Redis
   * once, not once each.
   */
  async hgetMany(keys: readonly string[], field: string): Promise<(string | null)[]> {
    const now = this.now();
    const values: (string | null)[] = keys.map(() => null);
    const joined: Promise<void>[] = [];
    const missing: number[] = [];
    keys.forEach((key, i) => {
      const kept = this.fresh(key, field, now);
      if (kept !== undefined) {
        values[i] = kept;
        return;
      }
      const out = this.reading.get(readingKey(key, field));
      if (out !== undefined && out.epoch === this.epoch) joined.push(out.value.then((value) => void (values[i] = value)));
      else missing.push(i);
    });
    if (missing.length > 0) joined.push(this.readMissing(keys, field, missing, values, now));
    if (joined.length > 0) await Promise.all(joined);
    return values;
  }

  /** The `missing` keys' field in one pipeline, each shared in `reading` while it is out. */
  private async readMissing(
    keys: readonly string[],
    field: string,
    missing: readonly number[],
    values: (string | null)[],
    now: number,
  ): Promise<void> {
    const keepable = this.armed;
    const epoch = this.epoch;
    const pipeline = this.reads.pipeline();
    for (const i of missing) pipeline.hget(keys[i]!, field);
    const results = pipeline.exec().then((answers) =>
      missing.map((_, j) => {
        const [error, value] = answers?.[j] ?? [null, null];
        if (error) throw error;
        return (value as string | null) ?? null;
      }),
    );
    const shared = missing.map((i, j) => {
      const entry = { epoch, value: results.then((read) => read[j]!) };
      entry.value.catch(() => undefined); // its reader meets the error below
      this.reading.set(readingKey(keys[i]!, field), entry);
      return entry;
    });
    try {
      const read = await results;
      const keep = keepable && this.armed && this.epoch === epoch;
      missing.forEach((i, j) => {
        values[i] = read[j]!;
        if (keep && values[i] !== null) this.keep(keys[i]!, field, values[i], now);
      });
    } finally {
      missing.forEach((i, j) => {
        const name = readingKey(keys[i]!, field);
        if (this.reading.get(name) === shared[j]) this.reading.delete(name);
      });
    }
  }

  /**
   * This process wrote these keys (its reply is in): their kept fields go now, and a read still
   * out keeps nothing, without waiting for Redis's invalidation on the other connection.
   */
  wrote(keys: readonly string[]): void {
    this.epoch += 1;
    for (const key of keys) this.kept.delete(key);
  }

  async close(): Promise<void> {
    this.disarm();
    await Promise.allSettled([closeRedis(this.reads), closeRedis(this.invalidations)]);
  }

  /** The kept value of `field` at `key`, while tracking is on and it is younger than MAX_AGE_MS. */
  private fresh(key: string, field: string, now: number): string | undefined {
    if (!this.armed) return undefined;
    const kept = this.kept.get(key)?.get(field);
    return kept !== undefined && now - kept.at < MAX_AGE_MS ? kept.value : undefined;
  }

  private keep(key: string, field: string, value: string, at: number): void {
    let fields = this.kept.get(key);
    if (fields === undefined) {
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
      fields = new Map();
      this.kept.set(key, fields);
    }
    fields.set(field, { value, at });
  }

  private disarm(): void {
    this.armed = false;
    this.epoch += 1;
    this.kept.clear();
  }

  /** Once both connections are up: the invalidations' connection subscribed, then tracking on for the reads. */
  private async arm(): Promise<void> {
    this.disarm();
    const epoch = this.epoch;
    if (this.reads.status !== 'ready' || this.invalidations.status !== 'ready') return;
    try {
      if (this.subscribedId === undefined) {
        const id = (await this.invalidations.client('ID')) as number;
        await this.invalidations.subscribe(INVALIDATE);
        this.subscribedId = id;
      }
      await this.reads.call('CLIENT', 'TRACKING', 'off');
      await this.reads.call('CLIENT', 'TRACKING', 'on', 'REDIRECT', String(this.subscribedId));
      if (this.epoch === epoch) this.armed = true;
    } catch (error) {
      this.logger.warn(`wallet cache: no in-process copy of verdicts, every read asks Redis (${(error as Error).message})`);
    }
  }
}

function readingKey(key: string, field: string): string {
  return `${field}\u0000${key}`;
}
