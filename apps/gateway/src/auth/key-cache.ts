import { DomainError } from '@credit/contracts/errors';

export interface KeyCacheLimits {
  /** How long a key found in Postgres is trusted without reading it again. */
  ttlMs: number;
  /** How long a hash not found is remembered as unknown. */
  negativeTtlMs: number;
  /** Keys found, at most (the oldest is dropped beyond). */
  maxEntries: number;
  /** Unknown hashes remembered, at most: kept apart, so a flood of them never evicts a real key. */
  maxUnknown: number;
  /** Lookups waiting on Postgres at once, at most; beyond, an uncached key is answered 503 at once. */
  maxInflight: number;
}

/**
 * In-process cache of key lookups by key hash, bounded and with expiry.
 *
 * - Keys found and hashes not found live in two maps with their own bounds: random keys can fill
 *   only the second, so the keys of real callers stay cached whatever a flood sends. (A key is
 *   random: a hash unknown now can only become known through a new key, which has a new hash.)
 * - Concurrent misses for one hash share one lookup, and at most `maxInflight` lookups wait on
 *   Postgres at once: a flood of distinct unknown keys costs a bounded number of queries in
 *   flight and sheds the rest with a 503, instead of piling up requests and memory.
 * - A revocation or account change that arrives while a lookup of that key is in flight wins: the
 *   lookup's (older) answer is not cached.
 */
export class KeyCache<V> {
  private readonly known = new Map<string, { value: V; expires: number }>();
  private readonly unknown = new Map<string, number>();
  private readonly inflight = new Map<string, Promise<V | null>>();
  /** Hashes whose in-flight lookup began before a revocation or account change. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly limits: KeyCacheLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value without waiting, or undefined on a miss (the hot path stays synchronous). */
  peek(hash: string): V | null | undefined {
    const hit = this.known.get(hash);
    if (hit !== undefined && hit.expires > this.now()) return hit.value;
    const unknownUntil = this.unknown.get(hash);
    return unknownUntil !== undefined && unknownUntil > this.now() ? null : undefined;
  }

  async get(hash: string, load: (hash: string) => Promise<V | null>): Promise<V | null> {
    const hit = this.peek(hash);
    if (hit !== undefined) return hit;
    const pending = this.inflight.get(hash);
    if (pending) return pending;
    if (this.inflight.size >= this.limits.maxInflight) {
      throw new DomainError('service_unavailable', 'Key verification is busy; try again shortly');
    }
    const settle = () => {
      this.inflight.delete(hash);
      const stale = this.stale.delete(hash);
      return !stale;
    };
    const lookup = load(hash).then(
      (value) => {
        if (settle()) this.set(hash, value);
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    this.inflight.set(hash, lookup);
    return lookup;
  }

  /** Drops a hash at once (a revocation broadcast); a lookup of it in flight is not cached. */
  delete(hash: string): void {
    this.known.delete(hash);
    this.unknown.delete(hash);
    if (this.inflight.has(hash)) this.stale.add(hash);
  }

  /**
   * Drops every cached key whose value matches (an account disabled or enabled); lookups in
   * flight are not cached, since their value is not known yet.
   */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [hash, entry] of this.known) if (matches(entry.value)) this.known.delete(hash);
    for (const hash of this.inflight.keys()) this.stale.add(hash);
  }

  get size(): { known: number; unknown: number; inflight: number } {
    return { known: this.known.size, unknown: this.unknown.size, inflight: this.inflight.size };
  }

  private set(hash: string, value: V | null): void {
    if (value === null) {
      this.known.delete(hash);
      insertBounded(this.unknown, hash, this.now() + this.limits.negativeTtlMs, this.limits.maxUnknown);
    } else {
      this.unknown.delete(hash);
      insertBounded(this.known, hash, { value, expires: this.now() + this.limits.ttlMs }, this.limits.maxEntries);
    }
  }
}

/** Sets `key` last in insertion order, dropping the oldest entry when the map is full. */
function insertBounded<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  map.delete(key);
  if (map.size >= max) {
    // Maps iterate in insertion order: the first key is the oldest entry.
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
