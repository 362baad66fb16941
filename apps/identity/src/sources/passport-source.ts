import { z } from 'zod';
import type { Address } from 'viem';
import type { IdentityFields, IdentitySource } from '../domain/identity-source';
import { ProviderError, requestJson, trimBase } from './http-json';

export interface PassportSourceConfig {
  /** The Stamps API base, e.g. `https://api.passport.xyz`. */
  baseUrl: string;
  /** Sent as `X-API-KEY`. */
  apiKey: string;
  /** The Scorer ID from the developer portal. */
  scorerId: string;
  timeoutMs?: number;
}

const PROVIDER = 'passport';
const DEFAULT_TIMEOUT_MS = 3_000;

/** A decimal number as a string: the API serialises Decimals that way ("33.53800"). */
const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'not a decimal string');
const IsoDateTime = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'not an ISO 8601 date-time');

/** Stamps API v2 `stamps.<provider>` (docs: data dictionary v2). */
const StampScore = z.object({
  score: DecimalString,
  dedup: z.boolean(),
  expiration_date: IsoDateTime.nullish(),
});

/** Stamps API v2 `GET /v2/stamps/{scorer_id}/score/{address}`, the fields this source relies on. */
const ScoreResponse = z.object({
  address: z.string(),
  score: DecimalString.nullable(),
  passing_score: z.boolean(),
  threshold: DecimalString,
  last_score_timestamp: IsoDateTime.nullish(),
  expiration_timestamp: IsoDateTime.nullish(),
  error: z.string().nullable(),
  stamps: z.record(z.string(), StampScore).nullable(),
});
type ScoreResponse = z.infer<typeof ScoreResponse>;

/**
 * Human Passport (formerly Gitcoin Passport), Stamps API v2. The API scores an address on demand,
 * so an address it has never seen answers 200 with score 0 and no stamps: that is "nothing known"
 * here (`undefined`), not a zero score. A 404 means the scorer ID is unknown to the key (a
 * configuration error), so it throws like any other non-2xx.
 */
export class PassportSource implements IdentitySource {
  readonly name = 'passport' as const;
  readonly timeoutMs: number;

  constructor(
    private readonly config: PassportSourceConfig,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    const { baseUrl, apiKey, scorerId } = this.config;
    const url = `${trimBase(baseUrl)}/v2/stamps/${encodeURIComponent(scorerId)}/score/${address}`;
    const body = await requestJson({ provider: PROVIDER, url, headers: { 'X-API-KEY': apiKey }, signal, schema: ScoreResponse });
    return body === undefined ? undefined : toFields(body, this.now());
  }
}

function toFields(body: ScoreResponse, now: Date): IdentityFields | undefined {
  if (body.error !== null) throw new ProviderError(PROVIDER, 'shape', `the scorer reported an error: ${body.error}`);
  if (body.score === null) throw new ProviderError(PROVIDER, 'shape', 'the answer has no score');
  const score = Number(body.score);
  const stamps = Object.entries(body.stamps ?? {});
  if (score === 0 && stamps.length === 0) return undefined;
  return {
    ext_passport: {
      score: Math.min(100, Math.max(0, score)),
      stamps: stamps.map(([provider, stamp]) => ({ provider, verified: isVerified(stamp, now) })),
    },
  };
}

/**
 * A stamp in the answer is one the address has verified (the data dictionary: "the credentials that
 * the user has verified"). It counts as verified here unless the docs say it does not count: it is
 * deduplicated (`dedup: true`, claimed by another address first, so its score is zeroed and it
 * adds nothing to the total) or its `expiration_date` has passed. A stamp with no expiration date
 * is not expired.
 */
function isVerified(stamp: z.infer<typeof StampScore>, now: Date): boolean {
  if (stamp.dedup) return false;
  if (stamp.expiration_date == null) return true;
  return Date.parse(stamp.expiration_date) > now.getTime();
}
