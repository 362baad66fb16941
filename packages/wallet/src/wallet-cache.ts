import type { Redis } from 'ioredis';
import type { Address } from 'viem';
import { WalletView } from './wallet-view';
import { spanUntilSettled } from '@credit/telemetry/tracing';
import type { TrackedFieldCopy } from './tracked-field-copy';

/** What the cache needs to report: a Redis outage degrades to misses, so it is a warning, not a failure. */
export interface CacheLogger {
  warn(message: string): void;
}

/** A name's cached resolution: the address, or `null` for a name that resolves to nothing. */
export type CachedName = Address | null;

const NO_ADDRESS = 'none';

/** Stores `value` under `field` of a wallet's entry only while the entry holds the view stamped `at`. */
const SET_IF_VIEW = `if redis.call('HGET', KEYS[1], 'at') == ARGV[1] then return redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end return 0`;

/** What was computed from one cached view, to be stored beside it (`setDerived`). */
export interface DerivedEntry {
  address: Address;
  /** The `computedAt` of the view it was computed from: stored only if that view is still the cached one. */
  viewComputedAt: string;
  value: string;
}

/**
 * The 5-minute cache per address (docs/API.md §8) in Redis, shared by scoring and reports. Keys:
 * - `[<stack prefix>:]wallet:v5:<checksummed address>` → a hash: `view` the WalletView (JSON),
 *   `at` its `computedAt`, and what was computed from that view (scoring's verdict under
 *   `score:<model fingerprint>`). One reading of the wallet serves its score and every report, so
 *   the two never disagree within the TTL; a new view replaces the whole hash in one transaction,
 *   so a verdict never outlives the view it came from, and one is added only while its view is
 *   still the cached one (a script compares `at`);
 * - `[<stack prefix>:]wallet:v5:ens:<normalised name>` → the checksummed address, or `none`.
 * The stack prefix is the NATS subject prefix: a stack under its own prefix (a test suite, a
 * bench, a developer's second stack) has a cache of its own too. A verdict is keyed by the model
 * that reached it, so a new model scores the cached views again without a flush.
 *
 * The cache is an optimisation, never a dependency: a Redis error or an unreadable entry counts as
 * a miss (and is logged); a failed write is logged and forgotten.
 */
export class WalletCache {
  private readonly walletPrefix: string;
  private readonly namePrefix: string;

  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    stackPrefix: string,
    private readonly logger: CacheLogger,
    /** Where derived fields are read: an in-process copy Redis keeps coherent (`TrackedFieldCopy`). */
    private readonly derived?: Pick<TrackedFieldCopy, 'hgetMany' | 'peek' | 'wrote'>,
  ) {
    const root = stackPrefix ? `${stackPrefix}:wallet:v5` : 'wallet:v5';
    this.walletPrefix = `${root}:`;
    this.namePrefix = `${root}:ens:`;
  }

  walletKey(address: Address): string {
    return `${this.walletPrefix}${address}`;
  }

  nameKey(name: string): string {
    return `${this.namePrefix}${name}`;
  }

  /** The cached views of the addresses that have one (one round trip). */
  async getWallets(addresses: readonly Address[]): Promise<Map<Address, WalletView>> {
    const found = new Map<Address, WalletView>();
    const values = await this.getField(addresses, 'view');
    addresses.forEach((address, i) => {
      const text = values[i];
      if (text === null || text === undefined) return;
      const parsed = parseJson(text, WalletView.safeParse.bind(WalletView));
      if (parsed) found.set(address, parsed);
      else this.logger.warn(`wallet cache: unreadable entry for ${address} ignored`);
    });
    return found;
  }

  /** Caches the views, each replacing its wallet's whole entry (and so what was computed from the one before). */
  async setWallets(views: ReadonlyMap<Address, WalletView>): Promise<void> {
    if (views.size === 0) return;
    const transaction = this.redis.multi();
    for (const [address, view] of views) {
      const key = this.walletKey(address);
      transaction.del(key).hset(key, 'view', JSON.stringify(view), 'at', view.computedAt).expire(key, this.ttlSeconds);
    }
    await this.write('redis MULTI', views.size, transaction.exec());
    this.derived?.wrote([...views.keys()].map((a) => this.walletKey(a)));
  }

  /**
   * What was computed from `address`'s cached view under `field`, when this process holds it (the
   * tracked copy), with no promise and no Redis; undefined otherwise (ask `getDerived`).
   */
  peekDerived(address: Address, field: string): string | undefined {
    return this.derived?.peek(this.walletKey(address), field);
  }

  /** What was computed from the cached views under `field` (one round trip); absent where there is none. */
  async getDerived(addresses: readonly Address[], field: string): Promise<Map<Address, string>> {
    const derived = this.derived;
    const values = derived
      ? await this.read('redis HGET', addresses.length, () =>
          derived.hgetMany(
            addresses.map((a) => this.walletKey(a)),
            field,
          ),
        )
      : await this.getField(addresses, field);
    const found = new Map<Address, string>();
    addresses.forEach((address, i) => {
      const text = values[i];
      if (text !== null && text !== undefined) found.set(address, text);
    });
    return found;
  }

  /** Stores each entry under `field`, beside the view it was computed from, if that view is still cached (one round trip). */
  async setDerived(entries: readonly DerivedEntry[], field: string): Promise<void> {
    if (entries.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const e of entries) pipeline.eval(SET_IF_VIEW, 1, this.walletKey(e.address), e.viewComputedAt, field, e.value);
    await this.write('redis EVAL', entries.length, pipeline.exec());
    this.derived?.wrote(entries.map((e) => this.walletKey(e.address)));
  }

  /** The cached resolutions of the names that have one (one MGET). */
  async getNames(names: readonly string[]): Promise<Map<string, CachedName>> {
    const found = new Map<string, CachedName>();
    if (names.length === 0) return found;
    const values = await this.read('redis MGET', names.length, () => this.redis.mget(...names.map((n) => this.nameKey(n))));
    names.forEach((name, i) => {
      const text = values[i];
      if (text === null || text === undefined) return;
      if (text === NO_ADDRESS) found.set(name, null);
      else if (/^0x[0-9a-fA-F]{40}$/.test(text)) found.set(name, text as Address);
    });
    return found;
  }

  async setNames(resolutions: ReadonlyMap<string, CachedName>): Promise<void> {
    if (resolutions.size === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [name, address] of resolutions) pipeline.set(this.nameKey(name), address ?? NO_ADDRESS, 'EX', this.ttlSeconds);
    await this.write('redis SET', resolutions.size, pipeline.exec());
  }

  /** One field of each wallet's entry: one HGET, or one pipeline of them. */
  private async getField(addresses: readonly Address[], field: string): Promise<(string | null)[]> {
    if (addresses.length === 0) return [];
    return this.read('redis HGET', addresses.length, async () => {
      if (addresses.length === 1) return [await this.redis.hget(this.walletKey(addresses[0]!), field)];
      const pipeline = this.redis.pipeline();
      for (const address of addresses) pipeline.hget(this.walletKey(address), field);
      const results = (await pipeline.exec()) ?? [];
      return addresses.map((_, i) => {
        const [error, value] = results[i] ?? [null, null];
        if (error) throw error;
        return (value as string | null) ?? null;
      });
    });
  }

  private async read(span: string, keys: number, run: () => Promise<(string | null)[]>): Promise<(string | null)[]> {
    try {
      return await spanUntilSettled(span, { 'db.system.name': 'redis', 'credit.keys': keys }, run());
    } catch (error) {
      this.logger.warn(`wallet cache: read failed, reading without it (${(error as Error).message})`);
      return Array.from({ length: keys }, () => null);
    }
  }

  private async write(span: string, keys: number, pending: Promise<[Error | null, unknown][] | null>): Promise<void> {
    try {
      const results = await spanUntilSettled(span, { 'db.system.name': 'redis', 'credit.keys': keys }, pending);
      const failed = results?.find(([error]) => error !== null);
      if (failed) throw failed[0];
    } catch (error) {
      this.logger.warn(`wallet cache: write failed (${(error as Error).message})`);
    }
  }
}

function parseJson<T>(text: string, parse: (value: unknown) => { success: true; data: T } | { success: false }): T | undefined {
  try {
    const result = parse(JSON.parse(text));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
