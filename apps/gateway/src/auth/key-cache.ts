/**
 * In-process cache of key lookups by key hash, bounded and with expiry. Unknown hashes are cached
 * too (a key is random: a hash that is unknown now can only become known through a new key, which
 * has a new hash), so a flood of bad keys does not reach Postgres. Concurrent misses for one hash
 * share one lookup.
 */
export class KeyCache<V> {
  private readonly entries = new Map<string, { value: V | null; expires: number }>();
  private readonly inflight = new Map<string, Promise<V | null>>();

  constructor(
    private readonly ttlMs: number,
    private readonly negativeTtlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value without waiting, or undefined on a miss (the hot path stays synchronous). */
  peek(hash: string): V | null | undefined {
    const hit = this.entries.get(hash);
    return hit !== undefined && hit.expires > this.now() ? hit.value : undefined;
  }

  async get(hash: string, load: (hash: string) => Promise<V | null>): Promise<V | null> {
    const hit = this.peek(hash);
    if (hit !== undefined) return hit;
    const pending = this.inflight.get(hash);
    if (pending) return pending;
    const lookup = load(hash).then(
      (value) => {
        this.inflight.delete(hash);
        this.set(hash, value);
        return value;
      },
      (error: unknown) => {
        this.inflight.delete(hash);
        throw error;
      },
    );
    this.inflight.set(hash, lookup);
    return lookup;
  }

  /** Drops a hash at once (a revocation broadcast). */
  delete(hash: string): void {
    this.entries.delete(hash);
    this.inflight.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }

  private set(hash: string, value: V | null): void {
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(hash);
    this.entries.set(hash, { value, expires: this.now() + (value === null ? this.negativeTtlMs : this.ttlMs) });
  }
}
