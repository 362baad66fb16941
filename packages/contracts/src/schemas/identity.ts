import { z } from 'zod';
import { ChecksummedAddress, IsoTimestamp } from './common';
import { MAX_AGGREGATE_ADDRESSES } from './score';

/**
 * docs/API.md §2.6. A source that is not configured in production is left out, never faked, so every
 * source object is optional.
 */
export const IdentityAttestations = z.object({
  address: ChecksummedAddress,
  ens: z
    .object({
      primary_name: z.string().nullable(),
      owned_names: z.array(z.string()),
      avatar: z.string().nullable().optional(),
    })
    .optional(),
  ext_passport: z
    .object({
      score: z.number().min(0).max(100),
      stamps: z.array(z.object({ provider: z.string(), verified: z.boolean() })),
    })
    .optional(),
  poaps: z
    .object({
      count: z.number().int().nonnegative(),
      events: z.array(z.object({ name: z.string(), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) })),
    })
    .optional(),
  social: z.record(z.string(), z.string()).optional(),
  cached: z.boolean(),
  timestamp: IsoTimestamp,
});
export type IdentityAttestations = z.infer<typeof IdentityAttestations>;

/** Up to 100 checksummed addresses (internal callers send resolved addresses, not names). */
export const IdentityManyRequest = z.object({ addresses: z.array(ChecksummedAddress).min(1).max(MAX_AGGREGATE_ADDRESSES) });
export type IdentityManyRequest = z.infer<typeof IdentityManyRequest>;

/**
 * One result per distinct address, in request order: its attestations, or null when no source
 * knows it; `complete` is false when a source failed or was late (its part is missing).
 */
export const IdentityManyReply = z.object({
  results: z.array(z.object({ address: ChecksummedAddress, attestations: IdentityAttestations.nullable(), complete: z.boolean() })),
});
export type IdentityManyReply = z.infer<typeof IdentityManyReply>;
