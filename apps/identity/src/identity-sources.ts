import type { ChainClient } from '@credit/chain/clients';
import type { IdentityConfig } from './config';
import type { IdentitySource } from './domain/identity-source';
import type { IndexedOwnedNames } from './domain/indexed-owned-names';
import { EnsSource } from './sources/ens-source';
import { FarcasterSource } from './sources/farcaster-source';
import { LensSource } from './sources/lens-source';
import { PassportSource } from './sources/passport-source';
import { PoapSource } from './sources/poap-source';

/**
 * The sources this configuration has: ENS when a chain of the registry has ENS (its owned names
 * from the name index when the chain's registrar controller is configured), each provider when its
 * settings are given. A provider that is not configured is not asked, and not faked.
 */
export function configuredSources(
  config: IdentityConfig,
  ensChain: ChainClient | undefined,
  ownedNames: IndexedOwnedNames | undefined,
): IdentitySource[] {
  const timeoutMs = config.IDENTITY_SOURCE_TIMEOUT_MS;
  const sources: IdentitySource[] = [];
  if (ensChain) sources.push(new EnsSource(ensChain, timeoutMs, ownedNames));
  if (config.PASSPORT_API_URL && config.PASSPORT_API_KEY && config.PASSPORT_SCORER_ID) {
    sources.push(
      new PassportSource({
        baseUrl: config.PASSPORT_API_URL,
        apiKey: config.PASSPORT_API_KEY,
        scorerId: config.PASSPORT_SCORER_ID,
        timeoutMs,
      }),
    );
  }
  if (config.POAP_API_URL && config.POAP_API_KEY)
    sources.push(new PoapSource({ baseUrl: config.POAP_API_URL, apiKey: config.POAP_API_KEY, timeoutMs }));
  if (config.NEYNAR_API_URL && config.NEYNAR_API_KEY) {
    sources.push(new FarcasterSource({ baseUrl: config.NEYNAR_API_URL, apiKey: config.NEYNAR_API_KEY, timeoutMs }));
  }
  if (config.LENS_API_URL) sources.push(new LensSource({ baseUrl: config.LENS_API_URL, apiKey: config.LENS_API_KEY ?? '', timeoutMs }));
  return sources;
}
