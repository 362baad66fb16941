import type { Address } from 'viem';
import { attestationStrings } from '@credit/contracts/attestations';
import { DomainError } from '@credit/contracts/errors';
import type { RpcClient } from '@credit/rpc/rpc-client';
import type { AttestationSource } from './attestations';

/**
 * The attestations of a report's addresses from the identity service over NATS, all in one request
 * (`credit.identity.attestations-many.v1`: the name-service reads of every address in one
 * multicall), as the strings of `attestationStrings`. An address no source knows has none. The
 * service not answering, or answering without a source that failed or was late (`complete:
 * false`), makes the report 503: a report never states a count of attestations it could not read
 * in full.
 */
export class IdentityServiceAttestations implements AttestationSource {
  constructor(private readonly rpc: Pick<RpcClient, 'send'>) {}

  async attestationsOf(addresses: readonly Address[]): Promise<ReadonlyMap<Address, readonly string[]>> {
    const { results } = await this.ask(addresses);
    const partial = results.filter((r) => !r.complete).map((r) => r.address);
    if (partial.length > 0) {
      throw new DomainError(
        'service_unavailable',
        `The identity service answered without a source for ${partial.join(', ')}; please retry shortly`,
      );
    }
    const byAddress = new Map(results.map((r) => [r.address, r.attestations ? attestationStrings(r.attestations) : []]));
    return new Map(addresses.map((a) => [a, byAddress.get(a) ?? []]));
  }

  private async ask(addresses: readonly Address[]) {
    try {
      return await this.rpc.send('credit.identity.attestations-many.v1', { addresses: [...addresses] });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new DomainError('service_unavailable', `The identity service could not answer (${why}); please retry shortly`);
    }
  }
}
