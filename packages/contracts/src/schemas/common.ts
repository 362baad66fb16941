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

/**
 * Bounds of the figures a caller supplies (the enhanced score and report bodies); replies add
 * them to on-chain figures, and an unbounded input (1e307 USD, 2^53 − 1 transactions) made those
 * sums leave the finite or safe-integer range and fail the reply's contract as a 500.
 * USD: 10 trillion, above any one borrower's balance sheet, and low enough that a sum with the
 * on-chain figures, counted in integer cents, stays exact (2^53 cents is about 90 trillion USD).
 * Counts: one trillion, above all transactions of all public chains to date (Ethereum has a few
 * billion), so a sum with on-chain counts stays a safe integer by a factor of thousands.
 */
export const MAX_INPUT_USD = 1e13;
export const MAX_INPUT_COUNT = 1e12;
export const UsdInput = NonNegativeNumber.max(MAX_INPUT_USD);
export const CountInput = NonNegativeInteger.max(MAX_INPUT_COUNT);

/** docs/API.md §2.1 range labels. */
export const RangeLabel = z.enum(['low', 'fair', 'good', 'very_good', 'excellent']);
export type RangeLabel = z.infer<typeof RangeLabel>;

export const MODEL_VERSION = 'andromeda_1.0';
