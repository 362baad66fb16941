import type { Redis } from 'ioredis';
import type { Address } from 'viem';
import { z } from 'zod';
import { IdentityAttestations } from '@credit/contracts/schemas/identity';
import { countCacheLookups } from '@credit/observability/cache-metrics';

/** What is cached of a lookup: the fields found, when, and whether every source answered. */
export const CachedIdentity = z.object({
  fields: IdentityAttestations.pick({ ens: true, ext_passport: true, poaps: true, social: true }),
  timestamp: z.iso.datetime({ offset: false }),
  complete: z.boolean(),
});
export type CachedIdentity = z.infer<typeof CachedIdentity>;

export interface IdentityCacheLogger {
  warn(message: string): void;
}

/**
 * `[<stack prefix>:]identity:v1:<checksummed address>` in Redis: a complete lookup for the full TTL
 * (docs/API.md §4.3, 5 minutes), an incomplete one (a source failed or timed out) for a short TTL
 * only, so a provider's outage is retried soon instead of hiding its data for five minutes. An
 * optimisation, never a dependency: a Redis error is a miss, a failed write is logged. Reads are
 * counted as hits and misses (`credit_cache_lookups_total{cache="identity"}`; an unreadable entry or a Redis error is a miss).
 */
export class IdentityCache {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    stackPrefix: string,
    private readonly ttl: { completeSeconds: number; incompleteSeconds: number },
    private readonly logger: IdentityCacheLogger,
  ) {
    this.prefix = stackPrefix ? `${stackPrefix}:identity:v1:` : 'identity:v1:';
  }

  key(address: Address): string {
    return `${this.prefix}${address}`;
  }

  async get(address: Address): Promise<CachedIdentity | undefined> {
    const entry = await this.read(address);
    countCacheLookups('identity', entry ? 1 : 0, entry ? 0 : 1);
    return entry;
  }

  private async read(address: Address): Promise<CachedIdentity | undefined> {
    try {
      const text = await this.redis.get(this.key(address));
      if (text === null) return undefined;
      const parsed = CachedIdentity.safeParse(JSON.parse(text));
      if (!parsed.success) this.logger.warn(`identity cache: unreadable entry for ${address} ignored`);
      return parsed.success ? parsed.data : undefined;
    } catch (error) {
      this.logger.warn(`identity cache: read failed, looking up without it (${(error as Error).message})`);
      return undefined;
    }
  }

  async set(address: Address, entry: CachedIdentity): Promise<void> {
    const ttl = entry.complete ? this.ttl.completeSeconds : this.ttl.incompleteSeconds;
    try {
      await this.redis.set(this.key(address), JSON.stringify(entry), 'EX', ttl);
    } catch (error) {
      this.logger.warn(`identity cache: write failed (${(error as Error).message})`);
    }
  }
}
