import type { Address } from 'viem';
import { attestationStrings } from '@credit/contracts/attestations';
import { DomainError } from '@credit/contracts/errors';
import type { RpcClient } from '@credit/rpc/rpc-client';
import type { AttestationSource } from './attestations';

/**
 * The attestations of a report's addresses from the identity service over NATS, all in one request
 * (`credit.identity.attestations-many.v1`: the name-service reads of every address in one
 * multicall), as the strings of `attestationStrings`. An address no source knows has none. The
 * service not answering, or answering that its sources failed, makes the report 503 naming it: a
 * report never states a count of attestations it could not read.
 */
export class IdentityServiceAttestations implements AttestationSource {
  constructor(private readonly rpc: Pick<RpcClient, 'send'>) {}

  async attestationsOf(addresses: readonly Address[]): Promise<ReadonlyMap<Address, readonly string[]>> {
    try {
      const { results } = await this.rpc.send('credit.identity.attestations-many.v1', { addresses: [...addresses] });
      const byAddress = new Map(results.map((r) => [r.address, r.attestations ? attestationStrings(r.attestations) : []]));
      return new Map(addresses.map((a) => [a, byAddress.get(a) ?? []]));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'service_unavailable') {
        throw new DomainError('service_unavailable', `The identity service could not answer: ${error.message}`);
      }
      const why = error instanceof Error ? error.message : String(error);
      throw new DomainError('service_unavailable', `Temporarily unable to read the identity service (${why}); please retry shortly`);
    }
  }
}
