import { getAddress, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import { ensNameOwner, resolveEnsNames, resolveEnsText } from '@credit/chain/ens-reader';
import type { IdentityFields, IdentitySource } from '../domain/identity-source';
import type { IndexedOwnedNames } from '../domain/indexed-owned-names';

interface Primary {
  name: string;
  avatar: string | null;
  /** Whether the registry names the address as the primary name's owner (read only without a name index). */
  ownedByAddress: boolean;
}

/**
 * The name service on chain (the registry's ENS chain): the primary name (reverse record, checked
 * forward, as viem's `getEnsName` does), its `avatar` text record as stored (never fetched), and
 * the names the address owns: with the .eth registrar controller configured, every name the
 * indexer saw registered and last given to the address (`IndexedOwnedNames`); without it, only
 * what the chain can prove of the primary name (listed when the registry says the address owns
 * it). Nothing when the address has neither a primary name nor an owned name.
 */
export class EnsSource implements IdentitySource {
  readonly name = 'ens' as const;

  constructor(
    private readonly chain: ChainClient,
    readonly timeoutMs: number,
    private readonly owned: Pick<IndexedOwnedNames, 'ownedNames'> | undefined,
  ) {}

  async lookup(address: Address, signal: AbortSignal): Promise<IdentityFields | undefined> {
    return (await this.lookupMany([address], signal)).get(address);
  }

  /** One index read for all the addresses; their reverse records in one multicall, the rest batched into multicalls by the client. */
  async lookupMany(addresses: readonly Address[], signal: AbortSignal): Promise<Map<Address, IdentityFields | undefined>> {
    // the reverse records' multicall reads the head too: the name index is judged against it
    const reverse = resolveEnsNames(this.chain, addresses);
    const head = reverse.then(({ block }) => block);
    head.catch(() => undefined); // the reverse read's failure is met below
    const [primaries, owned] = await abortable(
      Promise.all([reverse.then(({ names }) => this.primariesOf(addresses, names)), this.owned?.ownedNames(addresses, head)]),
      signal,
    );
    return new Map(
      addresses.map((address, i) => {
        const primary = primaries[i];
        const names = owned ? owned.get(address)! : primary?.ownedByAddress ? [primary.name] : [];
        if (!primary && names.length === 0) return [address, undefined];
        return [address, { ens: { primary_name: primary?.name ?? null, owned_names: names, avatar: primary?.avatar ?? null } }];
      }),
    );
  }

  /** For each address with a primary name, its avatar (and owner). */
  private async primariesOf(addresses: readonly Address[], names: readonly (string | null)[]): Promise<(Primary | undefined)[]> {
    return Promise.all(names.map((name, i) => (name ? this.primaryOf(addresses[i]!, name) : undefined)));
  }

  private async primaryOf(address: Address, name: string): Promise<Primary> {
    // with the name index, owned names come from it: the registry's owner of the primary name is not needed
    const [avatar, owner] = await Promise.all([
      resolveEnsText(this.chain, name, 'avatar'),
      this.owned ? Promise.resolve(null) : ensNameOwner(this.chain, name),
    ]);
    return { name, avatar: avatar && avatar.length > 0 ? avatar : null, ownedByAddress: owner !== null && getAddress(owner) === address };
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
