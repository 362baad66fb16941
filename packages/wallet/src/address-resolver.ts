import { getAddress, type Address } from 'viem';
import { classifyAddress, invalidAddressMessage, warmNameNormalisation } from '@credit/address/address-input';
import type { ChainClient } from '@credit/chain/clients';
import { resolveEnsAddress } from '@credit/chain/ens-reader';
import { DomainError } from '@credit/contracts/errors';
import type { WalletCache } from './wallet-cache';
import { upstream, type UpstreamLogger } from './upstream';

/** An input read: its resolved, checksummed address, or undefined when invalid or unresolvable. */
export interface ResolvedInput {
  input: string;
  address: Address | undefined;
}

/**
 * One reading of an address parameter for every score and report subject (`classifyAddress`): hex →
 * checksummed; a name → its ENS forward resolution on the registry's ENS chain (the first chain
 * with `ens` configured), cached for the wallet cache's TTL, unresolved names included. A name that does not
 * resolve, or any name when no chain has ENS, is treated like an invalid address.
 */
export class AddressResolver {
  constructor(
    private readonly cache: WalletCache,
    private readonly ensChain: ChainClient | undefined,
    private readonly logger: UpstreamLogger,
  ) {
    // built with the service, not by its first request that carries a name
    warmNameNormalisation();
  }

  /** Every input, in order; names are looked up together (one MGET, then one eth_call per uncached name). */
  async resolveAll(inputs: readonly string[]): Promise<ResolvedInput[]> {
    const classified = inputs.map((input) => classifyAddress(input));
    const names = [...new Set(classified.flatMap((c) => (c.kind === 'name' ? [c.name] : [])))];
    const byName = await this.resolveNames(names);
    return classified.map((c) => {
      switch (c.kind) {
        case 'hex':
          return { input: c.input, address: c.address };
        case 'name':
          return { input: c.input, address: byName.get(c.name) ?? undefined };
        case 'invalid':
          return { input: c.input, address: undefined };
      }
    });
  }

  /** A hex input's checksummed address, with no promise; undefined for a name or an invalid input (ask `resolveOne`). */
  peekOne(input: string): Address | undefined {
    const classified = classifyAddress(input);
    return classified.kind === 'hex' ? classified.address : undefined;
  }

  /** A single-address subject: invalid or unresolvable is 404 `address_not_found`. */
  async resolveOne(input: string): Promise<Address> {
    const [resolved] = await this.resolveAll([input]);
    if (!resolved?.address) throw new DomainError('address_not_found', invalidAddressMessage(input));
    return resolved.address;
  }

  /**
   * An aggregated or batch subject: the valid addresses, repeats once (first occurrence kept, order
   * kept), invalid and unresolvable inputs skipped; none valid is 400 `no_valid_address`.
   */
  async resolveMany(inputs: readonly string[]): Promise<Address[]> {
    const addresses = [...new Set((await this.resolveAll(inputs)).flatMap((r) => (r.address ? [r.address] : [])))];
    if (addresses.length === 0) throw new DomainError('no_valid_address', 'No valid address supplied');
    return addresses;
  }

  private async resolveNames(names: readonly string[]): Promise<Map<string, Address | null>> {
    if (names.length === 0) return new Map();
    const ensChain = this.ensChain;
    if (!ensChain) return new Map(names.map((n) => [n, null]));
    const resolved = await this.cache.getNames(names);
    const misses = names.filter((n) => !resolved.has(n));
    if (misses.length === 0) return resolved;
    const looked = await upstream('the name service', this.logger, () =>
      Promise.all(misses.map(async (name) => [name, await resolveEnsAddress(ensChain, name)] as const)),
    );
    const fresh = new Map<string, Address | null>();
    for (const [name, address] of looked) {
      // viem answers the zero address for a name whose resolver has no address record
      fresh.set(name, address && !/^0x0{40}$/i.test(address) ? getAddress(address) : null);
    }
    await this.cache.setNames(fresh);
    for (const [name, address] of fresh) resolved.set(name, address);
    return resolved;
  }
}
