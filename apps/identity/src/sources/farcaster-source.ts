import { z } from 'zod';
import type { Address } from 'viem';
import type { IdentityFields, IdentitySource } from '../domain/identity-source';
import { requestJson, trimBase } from './http-json';

export interface FarcasterSourceConfig {
  /** The Neynar API base, e.g. `https://api.neynar.com`. */
  baseUrl: string;
  /** Sent as `x-api-key`. */
  apiKey: string;
  timeoutMs?: number;
}

const PROVIDER = 'neynar';
const DEFAULT_TIMEOUT_MS = 3_000;

/** Neynar's `User`, the fields this source relies on (all required in the OpenAPI schema). */
const NeynarUser = z.object({
  object: z.literal('user'),
  fid: z.number().int().nonnegative(),
  username: z.string().min(1),
});

/** `BulkUsersByAddressResponse`: lower-cased address → the users holding it. */
const BulkUsersByAddressResponse = z.record(z.string(), z.array(NeynarUser));

/** Neynar's `ErrorRes`, the body of its 404 "Resource not found". */
const ErrorRes = z.object({ message: z.string() });

/** Neynar's documented limit of addresses in one bulk-by-address request. */
export const NEYNAR_ADDRESSES_PER_REQUEST = 350;

/**
 * Farcaster through Neynar: the users whose custody or verified address is `address`. Neynar
 * answers 404 (`ErrorRes`) when no user holds any of the addresses asked; a 200 without an
 * address's key, or with an empty array, is also "nothing known" for it. The first user's
 * username is the handle. Many addresses go in one request (`lookupMany`: up to 350 a request,
 * as Neynar documents), not one request each.
 */
export class FarcasterSource implements IdentitySource {
  readonly name = 'farcaster' as const;
  readonly timeoutMs: number;

  constructor(private readonly config: FarcasterSourceConfig) {
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    return (await this.lookupMany([address], signal)).get(address);
  }

  async lookupMany(addresses: readonly Address[], signal: AbortSignal): Promise<Map<Address, IdentityFields | undefined>> {
    const chunks: Address[][] = [];
    for (let i = 0; i < addresses.length; i += NEYNAR_ADDRESSES_PER_REQUEST)
      chunks.push(addresses.slice(i, i + NEYNAR_ADDRESSES_PER_REQUEST));
    const answers = await Promise.all(chunks.map((chunk) => this.usersOf(chunk, signal)));
    const byHolder = new Map<string, { username: string }[]>();
    for (const answer of answers) for (const [holder, users] of Object.entries(answer ?? {})) byHolder.set(holder.toLowerCase(), users);
    return new Map(
      addresses.map((address) => {
        const first = byHolder.get(address.toLowerCase())?.[0];
        return [address, first === undefined ? undefined : { social: { farcaster: first.username } }];
      }),
    );
  }

  /** One bulk-by-address request: the users by lower-cased holder, or undefined when none holds any. */
  private usersOf(addresses: readonly Address[], signal: AbortSignal) {
    const keys = [...new Set(addresses.map((a) => a.toLowerCase()))].join(',');
    return requestJson({
      provider: PROVIDER,
      url: `${trimBase(this.config.baseUrl)}/v2/farcaster/user/bulk-by-address/?addresses=${keys}`,
      headers: { 'x-api-key': this.config.apiKey },
      signal,
      schema: BulkUsersByAddressResponse,
      notFound: { status: 404, schema: ErrorRes },
    });
  }
}
