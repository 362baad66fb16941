/**
 * A bounded memo of a pure function of a string: the first `capacity` distinct keys' results are
 * kept, the oldest dropped past that (insertion order). The sandbox's generator is a pure function
 * of the input, and sandbox callers ask about the same few test addresses again and again, so a
 * hit returns exactly what a fresh computation would, without the hashing behind it.
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

/** Freezes a value and everything it holds: a memoised result is shared, so nobody may change it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
