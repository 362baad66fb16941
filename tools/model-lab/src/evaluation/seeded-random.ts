/**
 * A small seeded pseudo-random generator, so that every statistic that resamples or simulates is
 * reproducible: the same seed gives the same sequence on every machine and every run.
 *
 * It is the devnet's mulberry32 (`@credit/devnet/seed/rng`) started from a 32-bit FNV-1a hash of the
 * seed's text.
 */
import { mulberry32 } from '@credit/devnet/seed/rng';

/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** 32-bit FNV-1a hash of a string, as an unsigned integer. */
export function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A generator seeded by a string or a number (a number is seeded by its decimal text). */
export function seededRandom(seed: string | number): Random {
  return mulberry32(hashSeed(String(seed)));
}

/** A uniform integer in 0..n−1. */
export function randomInt(random: Random, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** A standard normal draw (Box–Muller; uses two uniforms per draw). */
export function standardNormal(random: Random): number {
  const u1 = 1 - random(); // in (0, 1], so the logarithm is finite
  const u2 = random();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
