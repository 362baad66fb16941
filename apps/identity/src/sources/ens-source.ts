import { getAddress, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import { ensNameOwner, resolveEnsName, resolveEnsText } from '@credit/chain/ens-reader';
import type { IdentityFields, IdentitySource } from '../domain/identity-source';

/**
 * The name service on chain (the registry's ENS chain): the primary name (reverse record, checked
 * forward, as viem's `getEnsName` does), its `avatar` text record as stored (never fetched), and the
 * names the address owns that this service can prove on chain: today the primary name when the
 * registry says the address owns it. Nothing without a primary name.
 */
export class EnsSource implements IdentitySource {
  readonly name = 'ens' as const;

  constructor(
    private readonly chain: ChainClient,
    readonly timeoutMs: number,
  ) {}

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    const primary = await abortable(resolveEnsName(this.chain, address), signal);
    if (!primary) return undefined;
    const [avatar, owner] = await abortable(
      Promise.all([resolveEnsText(this.chain, primary, 'avatar'), ensNameOwner(this.chain, primary)]),
      signal,
    );
    const owned = owner !== null && getAddress(owner) === address ? [primary] : [];
    return { ens: { primary_name: primary, owned_names: owned, avatar: avatar && avatar.length > 0 ? avatar : null } };
  }
}

/** Settles with `work`, or rejects when `signal` aborts first (viem's reads take no signal). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
