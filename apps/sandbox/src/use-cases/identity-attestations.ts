import type { IdentityAttestations } from '@credit/contracts/schemas/identity';
import type { AddressRequest } from '@credit/contracts/schemas/report';
import { resolveOne } from '../domain/resolve';

/** docs/API.md §2.6, sandbox form: generated identity data, never cached. */
export function identityAttestations(request: AddressRequest, now: Date): IdentityAttestations {
  const { address, profile } = resolveOne(request.address);
  const { ens, passport, poaps, social } = profile.identity;
  return {
    address,
    ...(ens ? { ens: { primary_name: ens.primaryName, owned_names: [...ens.ownedNames], avatar: ens.avatar } } : {}),
    ext_passport: { score: passport.score, stamps: passport.stamps.map((s) => ({ ...s })) },
    poaps: { count: poaps.count, events: poaps.events.map((e) => ({ ...e })) },
    ...(social ? { social: { ...social } } : {}),
    cached: false,
    timestamp: now.toISOString(),
  };
}
