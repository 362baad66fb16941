import type { Address } from 'viem';
import { parseChainRegistry, type ChainConfigInput, type ChainRegistry } from './chain-config';

/**
 * The parts of the devnet's `.devnet/state.json` the registry needs, declared structurally (this
 * package does not depend on `@credit/devnet` at run time). `contracts` is keyed by chain id, each
 * entry shaped like the devnet's `ChainContracts` (`deploy.ts`); ENS addresses are read from
 * either `ens: {registry, universalResolver, registrarController}` or `ensRegistry` /
 * `ensUniversalResolver` / `ensRegistrarController`.
 */
export interface DevnetStateLike {
  chains: readonly { id: number; name: string; rpcUrl: string }[];
  contracts: Readonly<Record<string, DevnetChainContractsLike | undefined>>;
}

export interface DevnetChainContractsLike {
  multicall3?: Address;
  nativePriceFeed: Address;
  tokens: Readonly<Record<string, { address: Address; symbol: string; name: string; decimals: number; priceFeed: Address }>>;
  lendingPool?: { address: Address };
  ens?: { registry?: Address; universalResolver: Address; registrarController?: Address };
  ensRegistry?: Address;
  ensUniversalResolver?: Address;
  ensRegistrarController?: Address;
}

export interface DevnetRegistryOptions {
  /** Chains to take (default: all in the state file). */
  chainIds?: readonly number[];
  /** The devnet's native coin (every devnet chain is an ETH chain). */
  nativeSymbol?: string;
  nativeName?: string;
  /**
   * Staleness bound for feed answers. Seeding travels years forward in block time while the
   * feeds keep their last update, so callers reading a seeded devnet usually widen this.
   */
  priceMaxAgeSeconds?: number;
  maxCallsPerMulticall?: number;
}

/** The chain registry of a running devnet, validated like any configured one. */
export function registryFromDevnetState(state: DevnetStateLike, options: DevnetRegistryOptions = {}): ChainRegistry {
  const chains = options.chainIds ? state.chains.filter((c) => options.chainIds!.includes(c.id)) : state.chains;
  const input: ChainConfigInput[] = chains.map((chain) => {
    const contracts = state.contracts[String(chain.id)];
    if (!contracts) throw new Error(`devnet state has no contracts for chain ${chain.id}`);
    const universalResolver = contracts.ens?.universalResolver ?? contracts.ensUniversalResolver;
    const registry = contracts.ens?.registry ?? contracts.ensRegistry;
    const registrarController = contracts.ens?.registrarController ?? contracts.ensRegistrarController;
    return {
      id: chain.id,
      name: chain.name,
      rpcUrl: chain.rpcUrl,
      nativeSymbol: options.nativeSymbol ?? 'ETH',
      nativeName: options.nativeName ?? 'Ether',
      nativePriceFeed: contracts.nativePriceFeed,
      tokens: Object.values(contracts.tokens).map((t) => ({
        symbol: t.symbol,
        name: t.name,
        address: t.address,
        decimals: t.decimals,
        priceFeed: t.priceFeed,
      })),
      lendingPools: contracts.lendingPool ? [{ name: `${chain.name} lending pool`, address: contracts.lendingPool.address }] : [],
      ...(universalResolver
        ? { ens: { universalResolver, ...(registry ? { registry } : {}), ...(registrarController ? { registrarController } : {}) } }
        : {}),
      ...(contracts.multicall3 ? { multicall3: contracts.multicall3 } : {}),
      ...(options.priceMaxAgeSeconds ? { priceMaxAgeSeconds: options.priceMaxAgeSeconds } : {}),
      ...(options.maxCallsPerMulticall ? { maxCallsPerMulticall: options.maxCallsPerMulticall } : {}),
    };
  });
  return parseChainRegistry(input, 'devnet state');
}
