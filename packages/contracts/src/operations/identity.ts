import { operation } from '../operation-def';
import { IdentityAttestations } from '../schemas/identity';
import { AddressRequest } from '../schemas/report';

/** docs/API.md §4.3: identity attestations, answered by the identity service. */
export const IDENTITY_OPERATIONS = {
  identityAttestations: operation({
    method: 'GET',
    path: '/identity/address/{address}/attestations',
    tag: 'Identity',
    summary: 'Identity attestations: name service, passport, attendance tokens, social',
    price: { kind: 'fixed', cu: 1 },
    production: {
      subject: 'credit.identity.attestations.v1',
      service: 'identity',
      request: AddressRequest,
      reply: IdentityAttestations,
      timeoutMs: 15_000,
      attemptTimeoutMs: 5_000,
      description: 'Identity attestations of an address (docs/API.md §4.3).',
    },
  }),
};
