import { defineChain, type Address, type Chain } from 'viem';

/** Where Multicall3 lives on almost every EVM chain; the devnet installs it there too. */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export type DevnetChainRole = 'scoring' | 'payment';

export interface DevnetChainSpec {
  id: number;
  name: string;
  role: DevnetChainRole;
}

/** Two scoring chains with production ids (so names and per-chain breakdowns look real) and the payment chain. */
export const DEFAULT_CHAINS: readonly DevnetChainSpec[] = [
  { id: 1, name: 'Ethereum', role: 'scoring' },
  { id: 8453, name: 'Base', role: 'scoring' },
  { id: 84532, name: 'Base Sepolia', role: 'payment' },
];

export interface DevnetChainContracts {
  multicall3?: Address;
  ensRegistry?: Address;
  ensUniversalResolver?: Address;
}

/** The contracts viem looks up by name, from a chain's deployed contracts. */
export function viemChainContracts(deployed: {
  multicall3?: Address;
  ens?: { registry: Address; universalResolver: Address };
}): DevnetChainContracts {
  return {
    ...(deployed.multicall3 ? { multicall3: deployed.multicall3 } : {}),
    ...(deployed.ens ? { ensRegistry: deployed.ens.registry, ensUniversalResolver: deployed.ens.universalResolver } : {}),
  };
}

/** A viem chain for a devnet RPC URL, with the contracts viem looks up by name (multicall3, ENS). */
export function devnetChain(spec: { id: number; name: string }, rpcUrl: string, contracts: DevnetChainContracts = {}): Chain {
  const known: Record<string, { address: Address }> = {
    multicall3: { address: contracts.multicall3 ?? MULTICALL3_ADDRESS },
  };
  if (contracts.ensRegistry) known.ensRegistry = { address: contracts.ensRegistry };
  if (contracts.ensUniversalResolver) known.ensUniversalResolver = { address: contracts.ensUniversalResolver };
  return defineChain({
    id: spec.id,
    name: spec.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: known,
  });
}
