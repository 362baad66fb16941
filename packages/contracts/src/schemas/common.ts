import { z } from 'zod';

/** An ISO 8601 timestamp in UTC, as `Date.prototype.toISOString` writes it. */
export const IsoTimestamp = z.iso.datetime({ offset: false });

/**
 * A raw address parameter as a caller sends it: a hex address or a name-service name. Not bounded
 * here: an overlong entry is an invalid address (404, or skipped in a list), not a bad request;
 * the HTTP limits (path parameter length, query and body size) bound what arrives.
 */
export const AddressInput = z.string().trim().min(1, 'address is required');

/** A checksummed hex address, as every reply carries it. */
export const ChecksummedAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

export const NonNegativeNumber = z.number().finite().nonnegative();
export const NonNegativeInteger = z.number().int().nonnegative();
export const ChainId = z.number().int().positive();

/** SPEC 2.1 range labels. */
export const RangeLabel = z.enum(['low', 'fair', 'good', 'very_good', 'excellent']);
export type RangeLabel = z.infer<typeof RangeLabel>;

export const MODEL_VERSION = 'andromeda_1.0';
