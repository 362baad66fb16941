import { z } from 'zod';
import { AddressInput, ChecksummedAddress, IsoTimestamp, MODEL_VERSION, RangeLabel, UsdInput } from './common';

/** docs/API.md §4.1 and §8: at most 100 addresses in one batch. */
export const MAX_BATCH_ADDRESSES = 100;
/** Aggregated endpoints take the same bound (docs/ARCHITECTURE.md decision 5). */
export const MAX_AGGREGATE_ADDRESSES = 100;

/** docs/MODEL.md: the model's six factors, in the order the API lists them. */
export const FACTOR_LABELS = ['Borrowing History', 'Wallet Composition', 'Wallet Health', 'Interactions', 'Trust', 'New Credit'] as const;
export type FactorLabel = (typeof FACTOR_LABELS)[number];

/** docs/MODEL.md: one entry per model factor, rated with the range labels. */
export const ScoreFactor = z.object({
  label: z.enum(FACTOR_LABELS),
  rating: RangeLabel,
  description: z.string(),
});
export type ScoreFactor = z.infer<typeof ScoreFactor>;

export const ScoreValue = z.number().int().min(300).max(1000);
export const Decile = z.number().int().min(1).max(10);

/** docs/API.md §2.1, single-address form; `factors` only with `?include_factors=true`. */
export const ScoreResult = z.object({
  address: ChecksummedAddress,
  score: ScoreValue,
  decile: Decile,
  range: RangeLabel,
  model_version: z.literal(MODEL_VERSION),
  timestamp: IsoTimestamp,
  factors: z.array(ScoreFactor).optional(),
});
export type ScoreResult = z.infer<typeof ScoreResult>;

/** docs/API.md §2.1, aggregated form: the mean of the valid addresses' scores. */
export const AggregatedScoreResult = ScoreResult.omit({ address: true, factors: true }).extend({
  address: z.array(ChecksummedAddress).min(1),
});
export type AggregatedScoreResult = z.infer<typeof AggregatedScoreResult>;

/** docs/API.md §2.2. */
export const BatchScoreResult = z.object({
  scores: z.array(ScoreResult),
  count: z.number().int().nonnegative(),
});
export type BatchScoreResult = z.infer<typeof BatchScoreResult>;

export const ScoreAddressRequest = z.object({
  address: AddressInput,
  include_factors: z.boolean().default(false),
});
export type ScoreAddressRequest = z.infer<typeof ScoreAddressRequest>;

/** The address list of an aggregated endpoint (invalid entries are skipped by the service). */
export const AggregateAddressList = z
  .array(AddressInput)
  .min(1, 'at least one address is required')
  .max(MAX_AGGREGATE_ADDRESSES, `at most ${MAX_AGGREGATE_ADDRESSES} addresses are allowed`);

export const AggregateScoreRequest = z.object({ addresses: AggregateAddressList });
export type AggregateScoreRequest = z.infer<typeof AggregateScoreRequest>;

export const BatchScoreRequest = z.object({
  addresses: z
    .array(AddressInput)
    .min(1, 'at least one address is required')
    .max(MAX_BATCH_ADDRESSES, `A batch holds at most ${MAX_BATCH_ADDRESSES} addresses`),
  include_factors: z.boolean().default(false),
});
export type BatchScoreRequest = z.infer<typeof BatchScoreRequest>;

/** docs/API.md §4.1 POST: off-chain assets boost the score (docs/MODEL.md). */
export const EnhancedScoreRequest = z.object({
  address: AddressInput,
  total_asset_usd: UsdInput.optional(),
  include_factors: z.boolean().default(false),
});
export type EnhancedScoreRequest = z.infer<typeof EnhancedScoreRequest>;
