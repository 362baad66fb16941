import type { Address } from 'viem';
import type { IdentityAttestations } from '@credit/contracts/schemas/identity';

/** The parts of docs/API.md §2.6 a source can fill (`address`, `cached` and `timestamp` are the service's). */
export type IdentityFields = Partial<Pick<IdentityAttestations, 'ens' | 'ext_passport' | 'poaps' | 'social'>>;

/** The source names, as they appear in logs, counters and attestation strings. */
export type SourceName = 'ens' | 'passport' | 'poap' | 'farcaster' | 'lens';

/**
 * One identity source behind the one interface: the name service on chain, or a provider's HTTP
 * API. A source that is not configured is not constructed at all (never faked).
 */
export interface IdentitySource {
  readonly name: SourceName;
  /** How long the service waits for this source before answering without it. */
  readonly timeoutMs: number;
  /**
   * What the source knows of `address` (checksummed): the fields it fills, or `undefined` when it
   * has nothing on the address (a 404 or an empty answer of the provider). Throws on a failure:
   * a network error, a timeout (`signal` aborted), a non-2xx other than "not found", a body that
   * is not the provider's documented shape (HTML, garbage). Social sources fill
   * `social: {<network>: <handle>}` with their own network only.
   */
  lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined>;
  /**
   * The same for many addresses at once, when the source can do better than one lookup each (the
   * name service: one multicall for all). Fails as a whole.
   */
  lookupMany?(addresses: readonly Address[], signal: AbortSignal): Promise<Map<Address, IdentityFields | undefined>>;
}
