import type { Address } from 'viem';

/**
 * Where a report's identity attestations come from (`list_identity_attestations`, strings such as
 * `ens:<name>`): the identity service over NATS (`identity-attestations.ts`).
 */
export interface AttestationSource {
  /** The attestations of each address (an address without any maps to an empty list). */
  attestationsOf(addresses: readonly Address[]): Promise<ReadonlyMap<Address, readonly string[]>>;
}
