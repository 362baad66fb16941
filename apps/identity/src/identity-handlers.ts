import { handlerTableProvider } from '@credit/rpc/handler-table';
import { identityAttestations, identityAttestationsMany } from './use-cases/identity-attestations';
import { IDENTITY_DEPS, type IdentityDeps } from './use-cases/identity-deps';

/** Every `credit.identity.*` subject and its use case. */
export const IdentityHandlers = handlerTableProvider('identity', IDENTITY_DEPS, (deps: IdentityDeps) => ({
  'credit.identity.attestations.v1': (request) => identityAttestations(request, deps),
  'credit.identity.attestations-many.v1': (request) => identityAttestationsMany(request, deps),
}));
