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

/**
 * Farcaster through Neynar: the users whose custody or verified address is `address`. Neynar
 * answers 404 (`ErrorRes`) when no user holds the address; a 200 without the address's key, or
 * with an empty array, is also "nothing known". The first user's username is the handle.
 */
export class FarcasterSource implements IdentitySource {
  readonly name = 'farcaster' as const;
  readonly timeoutMs: number;

  constructor(private readonly config: FarcasterSourceConfig) {
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    const key = address.toLowerCase();
    const url = `${trimBase(this.config.baseUrl)}/v2/farcaster/user/bulk-by-address/?addresses=${key}`;
    const byAddress = await requestJson({
      provider: PROVIDER,
      url,
      headers: { 'x-api-key': this.config.apiKey },
      signal,
      schema: BulkUsersByAddressResponse,
      notFound: { status: 404, schema: ErrorRes },
    });
    if (byAddress === undefined) return undefined;
    const users = Object.entries(byAddress).find(([holder]) => holder.toLowerCase() === key)?.[1];
    const first = users?.[0];
    return first === undefined ? undefined : { social: { farcaster: first.username } };
  }
}
