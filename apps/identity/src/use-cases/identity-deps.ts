import type { AddressResolver } from '@credit/wallet/address-resolver';
import type { IdentityCache } from '../domain/identity-cache';
import type { SourceFanout } from '../domain/source-fanout';

/** What the identity use case works with. */
export interface IdentityDeps {
  resolver: Pick<AddressResolver, 'resolveOne'>;
  cache: Pick<IdentityCache, 'get' | 'set'>;
  sources: Pick<SourceFanout, 'lookupMany'>;
  now: () => Date;
}

/** Injection token of the use case's dependencies (provided by `IdentityModule.forRoot`). */
export const IDENTITY_DEPS = Symbol('IDENTITY_DEPS');
