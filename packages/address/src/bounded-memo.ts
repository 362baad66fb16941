/**
 * A bounded memo of a pure function of a string: the first `capacity` distinct keys' results are
 * kept, the oldest dropped past that (insertion order). Callers ask about the same few addresses
 * again and again, so a hit returns exactly what a fresh computation would, without the checksum
 * and hashing behind it. A result is shared by every caller: it must not be changed.
 */
export function boundedMemo<T>(fn: (key: string) => T, capacity: number): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as T;
    const value = fn(key);
    if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
    return value;
  };
}
