import { DomainError } from '@credit/contracts/errors';
import { KeyCache, type KeyCacheLimits } from '../src/auth/key-cache';

/**
 * The key cache under the floods and races of issue 18, with a lookup function that answers when
 * the test says so (the cache's own logic is under test; the gateway suites use Postgres).
 */
interface Stored {
  keyId: string;
  accountId: string;
}

const LIMITS: KeyCacheLimits = { ttlMs: 60_000, negativeTtlMs: 300_000, maxEntries: 3, maxUnknown: 5, maxInflight: 4 };

/** Lookups that stay pending until `answer` is called for their hash. */
function controlledLookups() {
  const waiting = new Map<string, (value: Stored | null) => void>();
  let calls = 0;
  return {
    load: (hash: string) => {
      calls += 1;
      return new Promise<Stored | null>((resolve) => waiting.set(hash, resolve));
    },
    answer(hash: string, value: Stored | null) {
      waiting.get(hash)!(value);
      waiting.delete(hash);
    },
    get calls() {
      return calls;
    },
  };
}

const stored = (n: number, accountId = 'acc_1'): Stored => ({ keyId: `key_${n}`, accountId });
const found = (n: number) => Promise.resolve(stored(n));

describe('KeyCache', () => {
  it('a flood of unknown keys never evicts a key that was found', async () => {
    const cache = new KeyCache<Stored>(LIMITS);
    await cache.get('real', () => found(1));
    for (let i = 0; i < 1_000; i++) await cache.get(`random-${i}`, () => Promise.resolve(null));
    expect(cache.peek('real')).toEqual(stored(1));
    expect(cache.size).toEqual({ known: 1, unknown: LIMITS.maxUnknown, inflight: 0 });
    expect(cache.peek('random-999')).toBeNull(); // the newest unknown ones are remembered
    expect(cache.peek('random-0')).toBeUndefined(); // the oldest were dropped
  });

  it('keys found are bounded among themselves, oldest dropped first', async () => {
    const cache = new KeyCache<Stored>(LIMITS);
    for (let i = 1; i <= 4; i++) await cache.get(`k${i}`, () => found(i));
    expect(cache.peek('k1')).toBeUndefined();
    expect(cache.peek('k4')).toEqual(stored(4));
    expect(cache.size.known).toBe(3);
  });

  it('concurrent misses for one hash share one lookup; lookups in flight are bounded, the rest shed with 503', async () => {
    const cache = new KeyCache<Stored>(LIMITS);
    const lookups = controlledLookups();
    const same = [cache.get('a', lookups.load), cache.get('a', lookups.load)];
    const others = ['b', 'c', 'd'].map((h) => cache.get(h, lookups.load));
    expect(lookups.calls).toBe(4);
    const shed = await cache.get('e', lookups.load).catch((e: unknown) => e);
    expect(shed).toBeInstanceOf(DomainError);
    expect((shed as DomainError).code).toBe('service_unavailable');
    expect(lookups.calls).toBe(4); // the shed one never reached the store
    for (const h of ['a', 'b', 'c', 'd']) lookups.answer(h, null);
    await Promise.all([...same, ...others]);
    expect(cache.size.inflight).toBe(0);
    await expect(cache.get('e', () => found(5))).resolves.toEqual(stored(5)); // room again
  });

  it('a revocation that arrives while the key is being looked up is not undone by the lookup’s answer', async () => {
    const cache = new KeyCache<Stored>(LIMITS);
    const lookups = controlledLookups();
    const pending = cache.get('k', lookups.load);
    cache.delete('k'); // the broadcast overtakes the query
    lookups.answer('k', stored(1)); // the answer read before the revocation committed
    await expect(pending).resolves.toEqual(stored(1)); // the racing request itself is let through…
    expect(cache.peek('k')).toBeUndefined(); // …but not cached: the next request reads Postgres again
  });

  it('an account change drops every cached key of that account, and no lookup in flight is cached', async () => {
    const cache = new KeyCache<Stored>(LIMITS);
    await cache.get('a1', () => found(1));
    await cache.get('b1', () => Promise.resolve(stored(2, 'acc_2')));
    const lookups = controlledLookups();
    const pending = cache.get('a2', lookups.load);
    cache.deleteWhere((s) => s.accountId === 'acc_1');
    lookups.answer('a2', stored(3));
    await pending;
    expect(cache.peek('a1')).toBeUndefined();
    expect(cache.peek('a2')).toBeUndefined();
    expect(cache.peek('b1')).toEqual(stored(2, 'acc_2'));
  });

  it('entries expire: found keys after the TTL, unknown hashes after the negative TTL', async () => {
    let now = 0;
    const cache = new KeyCache<Stored>(LIMITS, () => now);
    await cache.get('k', () => found(1));
    await cache.get('u', () => Promise.resolve(null));
    now = LIMITS.ttlMs;
    expect(cache.peek('k')).toBeUndefined();
    expect(cache.peek('u')).toBeNull();
    now = LIMITS.negativeTtlMs;
    expect(cache.peek('u')).toBeUndefined();
  });
});
