import { randomBytes } from 'node:crypto';
import { mulberry32 } from '@credit/devnet/seed/rng';

/**
 * A seeded generator (mulberry32), so a failing fuzz run is replayed exactly: the suite prints
 * its seed, and `FUZZ_SEED=<seed>` runs the same inputs again.
 */
export interface Prng {
  readonly seed: number;
  /** [0, 1) */
  next(): number;
  int(maxExclusive: number): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  string(length: number, alphabet?: string): string;
}

export function seedFromEnv(): number {
  const given = process.env.FUZZ_SEED;
  return given !== undefined && /^\d+$/.test(given) ? Number(given) >>> 0 : randomBytes(4).readUInt32LE(0);
}

export function createPrng(seed: number): Prng {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    seed,
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick: (items) => items[int(items.length)]!,
    chance: (p) => next() < p,
    string: (length, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789') =>
      Array.from({ length }, () => alphabet[int(alphabet.length)]).join(''),
  };
}
