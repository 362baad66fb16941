import type { IdentityAttestations } from './schemas/identity';

/**
 * The attestation strings of docs/API.md §2.4 (`list_identity_attestations`), one stable string per
 * attestation of an identity answer (§2.6), without repeats, in this order:
 * - `ens:<name>`: the primary name, then every other owned name;
 * - `passport`: a passport with a positive score;
 * - `poap:<event name>`: each attendance token's event;
 * - `<network>:<handle>`: each social profile (`farcaster:alice`, `lens:alice`).
 */
export function attestationStrings(identity: Pick<IdentityAttestations, 'ens' | 'ext_passport' | 'poaps' | 'social'>): string[] {
  const list: string[] = [];
  if (identity.ens) {
    if (identity.ens.primary_name) list.push(`ens:${identity.ens.primary_name}`);
    for (const name of identity.ens.owned_names) list.push(`ens:${name}`);
  }
  if (identity.ext_passport && identity.ext_passport.score > 0) list.push('passport');
  for (const event of identity.poaps?.events ?? []) list.push(`poap:${event.name}`);
  for (const [network, handle] of Object.entries(identity.social ?? {})) list.push(`${network}:${handle}`);
  return [...new Set(list)];
}
