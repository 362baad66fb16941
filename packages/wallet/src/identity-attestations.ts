import type { Address } from 'viem';
import { attestationStrings } from '@credit/contracts/attestations';
import { DomainError } from '@credit/contracts/errors';
import { MAX_AGGREGATE_ADDRESSES } from '@credit/contracts/schemas/score';
import type { IdentityManyReply } from '@credit/contracts/schemas/identity';
import type { RpcClient } from '@credit/rpc/rpc-client';

/** What the identity service knows of one address, as a wallet reading keeps it. */
export interface IdentityEvidence {
  /** One string per attestation (`attestationStrings`: `ens:<name>`, `passport`, `poap:<event>`, `<network>:<handle>`). */
  attestations: string[];
  /** The passport's score (0–100) when the passport source knows the address; null otherwise. */
  passportScore: number | null;
  /** The date (YYYY-MM-DD) of each POAP event attended: the model counts only those long past. */
  poapDates: string[];
}

export const NO_IDENTITY: IdentityEvidence = { attestations: [], passportScore: null, poapDates: [] };

/** Where a wallet reading's identity evidence comes from. */
export interface AttestationSource {
  /** The evidence of each address (an address nobody knows maps to `NO_IDENTITY`). */
  attestationsOf(addresses: readonly Address[]): Promise<ReadonlyMap<Address, IdentityEvidence>>;
}

/**
 * The attestations of a reading's addresses from the identity service over NATS, in one request
 * per 100 addresses (`credit.identity.attestations-many.v1`: the name-service reads of each
 * request's addresses in one multicall), one after the other: each fans out to every provider per
 * address, and a provider asked for hundreds at once answers late. An address no source knows has none. The service not answering, or answering
 * without a source that failed or was late (`complete: false`), is a 503: neither a score's Trust
 * factor nor a report counts attestations it could not read in full.
 */
export class IdentityServiceAttestations implements AttestationSource {
  constructor(private readonly rpc: Pick<RpcClient, 'send'>) {}

  async attestationsOf(addresses: readonly Address[]): Promise<ReadonlyMap<Address, IdentityEvidence>> {
    if (addresses.length === 0) return new Map();
    const chunks: Address[][] = [];
    for (let i = 0; i < addresses.length; i += MAX_AGGREGATE_ADDRESSES) chunks.push(addresses.slice(i, i + MAX_AGGREGATE_ADDRESSES));
    const results: IdentityManyReply['results'] = [];
    for (const chunk of chunks) results.push(...(await this.ask(chunk)).results);
    const partial = results.filter((r) => !r.complete).map((r) => r.address);
    if (partial.length > 0) {
      throw new DomainError(
        'service_unavailable',
        `The identity service answered without a source for ${partial.join(', ')}; please retry shortly`,
      );
    }
    const byAddress = new Map(
      results.map((r): [string, IdentityEvidence] => [
        r.address,
        r.attestations
          ? {
              attestations: attestationStrings(r.attestations),
              passportScore: r.attestations.ext_passport?.score ?? null,
              poapDates: (r.attestations.poaps?.events ?? []).map((e) => e.date),
            }
          : NO_IDENTITY,
      ]),
    );
    return new Map(addresses.map((a) => [a, byAddress.get(a) ?? NO_IDENTITY]));
  }

  private async ask(addresses: Address[]): Promise<IdentityManyReply> {
    try {
      return await this.rpc.send('credit.identity.attestations-many.v1', { addresses });
    } catch (error) {
      // identity's own refusal already says what to do ("…; please retry shortly"); a transport failure does not
      if (error instanceof DomainError)
        throw new DomainError('service_unavailable', `The identity service could not answer: ${error.message}`);
      const why = error instanceof Error ? error.message : String(error);
      throw new DomainError('service_unavailable', `The identity service could not answer (${why}); please retry shortly`);
    }
  }
}
