import { BUCKETS_KEPT, sweep } from './bucket-sweep';
import type { Admission, RatePolicy, RateState } from './meter';

/** A lease of rate-limit tokens for free requests is used within this long, or lost. */
const LEASE_MS = 1_000;
const LEASE_MAX = 1_000;

/**
 * Tokens a free (0 CU) request takes from its bucket for the next ones of the same account on this
 * replica: a twentieth of the limit, at most 1,000, so a free plan's 10 a minute stays exact (1) and
 * a high limit costs one script call per many requests (at 15,000 free requests a second, a lease
 * of 100 left a fifth of them waiting on a script call). Unused tokens expire: the limit can only
 * come out stricter, never looser.
 */
export function leaseSize(policy: RatePolicy): number {
  return Math.max(1, Math.min(LEASE_MAX, Math.floor(policy.capacity / 20)));
}

interface Lease {
  tokens: number;
  expiresAt: number;
  /** Tokens the bucket had left when the lease was taken. */
  bucketLeft: number;
  resetSeconds: number;
}

/** This replica's leases of rate-limit tokens for free requests, by bucket. */
export class FreeLeases {
  private readonly leases = new Map<string, Lease>();

  /** A free request admitted from its bucket's lease, without a Redis call; undefined when none is left. */
  take(bucket: string, policy: RatePolicy, at: number): Admission | undefined {
    const lease = this.leases.get(bucket);
    if (lease === undefined || lease.tokens <= 0 || at >= lease.expiresAt) return undefined;
    lease.tokens -= 1;
    const rate: RateState = { policy, remaining: lease.bucketLeft + lease.tokens, resetSeconds: lease.resetSeconds };
    return { kind: 'admitted', rate, reservation: undefined };
  }

  /** Keeps `tokens` a script call taken at `at` left over, with what the bucket had left then. */
  keep(bucket: string, at: number, tokens: number, bucketLeft: number, resetSeconds: number): void {
    if (this.leases.size >= BUCKETS_KEPT) sweep(this.leases, (lease) => lease.expiresAt <= at || lease.tokens <= 0);
    // Two calls can be out for one bucket (its lease ran out during a turn, then again during the
    // next): their tokens add up, and expire with the older ones, so none is used later than its own lease allowed.
    const held = this.leases.get(bucket);
    const kept = held !== undefined && held.tokens > 0 && at < held.expiresAt ? held : undefined;
    this.leases.set(bucket, {
      tokens: tokens + (kept?.tokens ?? 0),
      expiresAt: Math.min(at + LEASE_MS, kept?.expiresAt ?? Infinity),
      bucketLeft,
      resetSeconds,
    });
  }
}
