import { createHash } from 'node:crypto';

/**
 * mulberry32 from a 32-bit integer state: uniforms in [0, 1), the same sequence on every machine.
 * A 32-bit generator, good enough for seeded worlds, bootstraps and test data, not for cryptography.
 * The one implementation of the workspace: the devnet's worlds, the model lab's resampling, the
 * scorecard's property tests and the fault suite's fuzzing all draw from it.
 */
export function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small deterministic PRNG (mulberry32) keyed by a string: the same seed gives the same world. */
export class Rng {
  private readonly random: () => number;

  constructor(seed: string) {
    this.random = mulberry32(createHash('sha256').update(seed).digest().readUInt32LE(0));
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.random();
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal (Box–Muller; always two uniforms). */
  normal(): number {
    const u = 1 - this.next(); // (0, 1]
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
}
