import type { Redis } from 'ioredis';
import type { Address } from 'viem';
import { WalletView } from './wallet-view';
import { spanUntilSettled } from '@credit/telemetry/tracing';

/** What the cache needs to report: a Redis outage degrades to misses, so it is a warning, not a failure. */
export interface CacheLogger {
  warn(message: string): void;
}

/** A name's cached resolution: the address, or `null` for a name that resolves to nothing. */
export type CachedName = Address | null;

const NO_ADDRESS = 'none';

/**
 * The 5-minute cache per address (docs/API.md §8) in Redis, shared by scoring and reports. Keys:
 * - `[<stack prefix>:]wallet:v4:<checksummed address>` → the WalletView (JSON): one reading of
 *   the wallet serves its score and every report, so the two never disagree within the TTL;
 * - `[<stack prefix>:]wallet:v4:ens:<normalised name>` → the checksummed address, or `none`.
 * The stack prefix is the NATS subject prefix: a stack under its own prefix (a test suite, a
 * bench, a developer's second stack) has a cache of its own too. A view holds data, not a model's
 * verdict, so a new model scores the cached views without a flush.
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
  ) {
    const root = stackPrefix ? `${stackPrefix}:wallet:v4` : 'wallet:v4';
    this.walletPrefix = `${root}:`;
    this.namePrefix = `${root}:ens:`;
  }

  walletKey(address: Address): string {
    return `${this.walletPrefix}${address}`;
  }

  nameKey(name: string): string {
    return `${this.namePrefix}${name}`;
  }

  /** The cached views of the addresses that have one (one MGET). */
  async getWallets(addresses: readonly Address[]): Promise<Map<Address, WalletView>> {
    const found = new Map<Address, WalletView>();
    if (addresses.length === 0) return found;
    const values = await this.mget(addresses.map((a) => this.walletKey(a)));
    addresses.forEach((address, i) => {
      const text = values[i];
      if (text === null || text === undefined) return;
      const parsed = parseJson(text, WalletView.safeParse.bind(WalletView));
      if (parsed) found.set(address, parsed);
      else this.logger.warn(`wallet cache: unreadable entry for ${address} ignored`);
    });
    return found;
  }

  async setWallets(views: ReadonlyMap<Address, WalletView>): Promise<void> {
    await this.setMany([...views].map(([address, view]) => [this.walletKey(address), JSON.stringify(view)]));
  }

  /** The cached resolutions of the names that have one (one MGET). */
  async getNames(names: readonly string[]): Promise<Map<string, CachedName>> {
    const found = new Map<string, CachedName>();
    if (names.length === 0) return found;
    const values = await this.mget(names.map((n) => this.nameKey(n)));
    names.forEach((name, i) => {
      const text = values[i];
      if (text === null || text === undefined) return;
      if (text === NO_ADDRESS) found.set(name, null);
      else if (/^0x[0-9a-fA-F]{40}$/.test(text)) found.set(name, text as Address);
    });
    return found;
  }

  async setNames(resolutions: ReadonlyMap<string, CachedName>): Promise<void> {
    await this.setMany([...resolutions].map(([name, address]) => [this.nameKey(name), address ?? NO_ADDRESS]));
  }

  private async mget(keys: readonly string[]): Promise<(string | null)[]> {
    try {
      return await spanUntilSettled('redis MGET', { 'db.system.name': 'redis', 'credit.keys': keys.length }, this.redis.mget(...keys));
    } catch (error) {
      this.logger.warn(`wallet cache: read failed, reading without it (${(error as Error).message})`);
      return keys.map(() => null);
    }
  }

  /** One round trip: every SET … EX in one pipeline. */
  private async setMany(entries: readonly (readonly [string, string])[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      const pipeline = this.redis.pipeline();
      for (const [key, value] of entries) pipeline.set(key, value, 'EX', this.ttlSeconds);
      const results = await spanUntilSettled('redis SET', { 'db.system.name': 'redis', 'credit.keys': entries.length }, pipeline.exec());
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
