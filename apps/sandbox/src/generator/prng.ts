import { createHash } from 'node:crypto';

/**
 * The generator's only source of variety. Everything here is exact integer or IEEE-754 arithmetic
 * (+, −, ×, ÷, floor, imul, shifts): no Math.random, no clock, no Math.log / Math.cos / Math.exp
 * (whose last bits an engine may compute differently), no locale. The same key therefore gives the
 * same numbers in every process, on every machine and every Node version.
 *
 * Each concern of a profile (score, activity, portfolio, …) draws from its own stream, seeded with
 * sha256(`sandbox/v1 <stream> <key>`), so that changing how one concern is generated never shifts
 * the numbers of another.
 */
export interface Rng {
  /** A uniform 32-bit unsigned integer. */
  u32(): number;
  /** A uniform float in [0, 1). */
  float(): number;
  /** A uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** Approximately standard normal (Irwin–Hall: the sum of 12 uniforms minus 6; bounded ±6). */
  normal(): number;
}

const SEED_VERSION = 'sandbox/v1';

export function rngFor(key: string, stream: string): Rng {
  const digest = createHash('sha256').update(`${SEED_VERSION}\u0000${stream}\u0000${key}`, 'utf8').digest();
  return sfc32(digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8), digest.readUInt32BE(12));
}

/** Chris Doty-Humphrey's sfc32: small, fast, 32-bit only, well tested (PractRand). */
function sfc32(seedA: number, seedB: number, seedC: number, seedD: number): Rng {
  let a = seedA | 0;
  let b = seedB | 0;
  let c = seedC | 0;
  let d = seedD | 0;
  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) u32(); // mix the seed in before the first draw
  const float = (): number => u32() / 4_294_967_296;
  return {
    u32,
    float,
    int(min, max) {
      if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
        throw new RangeError(`bad integer range [${min}, ${max}]`);
      }
      return min + Math.floor(float() * (max - min + 1));
    },
    chance: (p) => float() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(float() * items.length)] as T;
    },
    normal() {
      let sum = 0;
      for (let i = 0; i < 12; i++) sum += float();
      return sum - 6;
    },
  };
}
