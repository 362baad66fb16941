import type { Address } from 'viem';
import { DomainError } from '@credit/contracts/errors';
import type { IdentityAttestations, IdentityManyReply, IdentityManyRequest } from '@credit/contracts/schemas/identity';
import type { AddressRequest } from '@credit/contracts/schemas/report';
import type { IdentityFields } from '../domain/identity-source';
import type { IdentityDeps } from './identity-deps';

const hasData = (fields: IdentityFields): boolean => Object.values(fields).some((v) => v !== undefined);

/**
 * docs/API.md §4.3: the identity attestations of an address or name (`lookUp` below). No data from
 * any source: 404 `no_identity_data`.
 */
export async function identityAttestations(request: AddressRequest, deps: IdentityDeps): Promise<IdentityAttestations> {
  const address = await deps.resolver.resolveOne(request.address);
  const [{ found }] = (await lookUp([address], deps)) as [Looked];
  if (!found) throw new DomainError('no_identity_data', `No identity data found for ${address}`);
  return found;
}

/** The internal many-address form (the reports): one result per distinct address, null without data. */
export async function identityAttestationsMany(request: IdentityManyRequest, deps: IdentityDeps): Promise<IdentityManyReply> {
  const addresses = [...new Set(request.addresses)] as Address[];
  const looked = await lookUp(addresses, deps);
  return { results: addresses.map((address, i) => ({ address, attestations: looked[i]!.found ?? null, complete: looked[i]!.complete })) };
}

/**
 * The cache first (`cached: true`, the first lookup's `timestamp`); the misses from every
 * configured source at once. What answered in time is the answer, cached for 5 minutes when every
 * source answered, for a short time when one failed. An address with no data: undefined when every
 * source answered (cached too); 503 naming the failed sources when some did not (nothing is
 * claimed about them).
 */
interface Looked {
  found: IdentityAttestations | undefined;
  /** Every source answered (from the cache: every source had answered then). */
  complete: boolean;
}

async function lookUp(addresses: readonly Address[], deps: IdentityDeps): Promise<Looked[]> {
  const hits = await Promise.all(addresses.map((a) => deps.cache.get(a)));
  const misses = addresses.filter((_, i) => hits[i] === undefined);
  const fresh = misses.length > 0 ? await deps.sources.lookupMany(misses) : new Map();
  const timestamp = deps.now().toISOString();
  const unknown = [...fresh.values()].flatMap((r) => (!hasData(r.fields) && r.failed.length > 0 ? r.failed : []));
  if (unknown.length > 0) {
    throw new DomainError(
      'service_unavailable',
      `Identity sources did not answer (${[...new Set(unknown)].join(', ')}); please retry shortly`,
    );
  }
  await Promise.all([...fresh].map(([a, r]) => deps.cache.set(a, { fields: r.fields, timestamp, complete: r.failed.length === 0 })));
  return addresses.map((address, i): Looked => {
    const hit = hits[i];
    if (hit) {
      return {
        found: hasData(hit.fields) ? { address, ...hit.fields, cached: true, timestamp: hit.timestamp } : undefined,
        complete: hit.complete,
      };
    }
    const { fields, failed } = fresh.get(address)!;
    return { found: hasData(fields) ? { address, ...fields, cached: false, timestamp } : undefined, complete: failed.length === 0 };
  });
}
