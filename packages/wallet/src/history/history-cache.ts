import type { Redis } from 'ioredis';
import type { Address } from 'viem';
import type { CacheLogger } from '../wallet-cache';

/** How long a past day's point is kept: the identity evidence it was scored with (a passport) may change. */
export const HISTORY_TTL_SECONDS = 86_400;

/**
 * Past days' points of score histories (issue 38): `[<stack prefix>:]history:v1:<address>` → a
 * hash of `<model fingerprint>:<YYYY-MM-DD>` → the point's JSON (or `none`: no activity that day).
 * Only whole days are stored (a day some chain has not indexed to its end is refused, not read),
 * so a stored day never changes for the same model; the key expires a day after its last write.
 * An optimisation, never a dependency: a Redis error is a miss, a failed write is forgotten.
 */
export class HistoryCache {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    stackPrefix: string,
    private readonly logger: CacheLogger,
  ) {
    this.prefix = stackPrefix ? `${stackPrefix}:history:v1:` : 'history:v1:';
  }

  async get(address: Address, fields: readonly string[]): Promise<Map<string, string>> {
    if (fields.length === 0) return new Map();
    try {
      const values = await this.redis.hmget(this.prefix + address, ...fields);
      return new Map(fields.flatMap((f, i) => (values[i] == null ? [] : [[f, values[i]!] as const])));
    } catch (error) {
      this.logger.warn(`history cache read failed: ${(error as Error).message}`);
      return new Map();
    }
  }

  async set(address: Address, entries: ReadonlyMap<string, string>): Promise<void> {
    if (entries.size === 0) return;
    try {
      await this.redis
        .multi()
        .hset(this.prefix + address, Object.fromEntries(entries))
        .expire(this.prefix + address, HISTORY_TTL_SECONDS)
        .exec();
    } catch (error) {
      this.logger.warn(`history cache write failed: ${(error as Error).message}`);
    }
  }
}
