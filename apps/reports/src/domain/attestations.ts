import type { Address } from 'viem';

/**
 * Where a report's identity attestations come from (`list_identity_attestations`, strings such as
 * `ens:<name>`). The identity service answers them over NATS once it exists; until then reports
 * carry none: the count is 0 and the list empty, never invented.
 */
export interface AttestationSource {
  /** The attestations of each address (an address without any maps to an empty list). */
  attestationsOf(addresses: readonly Address[]): Promise<ReadonlyMap<Address, readonly string[]>>;
}

/** No identity service yet: no address has attestations. */
export const NO_ATTESTATIONS: AttestationSource = {
  attestationsOf: async (addresses) => new Map(addresses.map((a) => [a, []])),
};
