import { offchainLookupSignature, type Address, type AssetGatewayUrls } from 'viem';
import { getEnsAddress, getEnsAvatar, getEnsName, getEnsText, namehash, normalize } from 'viem/ens';
import type { ChainClient } from './clients';

/**
 * ENS through viem's own actions against the chain's configured universal resolver. Unlike the
 * other readers these are per name / per address: each forward or reverse lookup is one eth_call
 * to the universal resolver (plus CCIP-read gateway requests for offchain names), and an avatar is
 * a text-record lookup followed by whatever the record points to (an HTTP fetch for an https / ipfs
 * URI, an eth_call and a metadata fetch for an NFT avatar). They do not go through multicall.
 */

export class EnsNotConfiguredError extends Error {
  override readonly name = 'EnsNotConfiguredError';
  constructor(chainId: number) {
    super(`chain ${chainId} has no ENS universal resolver configured`);
  }
}

export interface EnsOptions {
  /** IPFS / Arweave gateways for avatar URIs (viem's defaults otherwise). */
  assetGatewayUrls?: AssetGatewayUrls;
  /** CCIP-read gateways for batched offchain lookups. */
  gatewayUrls?: string[];
}

function resolverOf(chainClient: ChainClient): Address {
  const ens = chainClient.config.ens;
  if (!ens) throw new EnsNotConfiguredError(chainClient.config.id);
  return ens.universalResolver;
}

/**
 * The address a name resolves to (ENSIP-15 normalised first), or null. Null too for a name served
 * offchain (its resolver answers with an EIP-3668 OffchainLookup): the clients run with CCIP-Read
 * off, since following it would fetch whatever URL a caller's chosen resolver names.
 */
export async function resolveEnsAddress(chainClient: ChainClient, name: string, options: EnsOptions = {}): Promise<Address | null> {
  return getEnsAddress(chainClient.client, {
    name: normalize(name),
    universalResolverAddress: resolverOf(chainClient),
    ...(options.gatewayUrls ? { gatewayUrls: options.gatewayUrls } : {}),
  }).catch((error: unknown) => {
    if (isOffchainLookup(error)) return null;
    throw error;
  });
}

/** Whether an error (or one of its causes) is a revert with EIP-3668's OffchainLookup. */
function isOffchainLookup(error: unknown): boolean {
  for (
    let e: unknown = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 10;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const data = (e as { data?: unknown }).data;
    const raw = typeof data === 'string' ? data : typeof data === 'object' && data !== null ? (data as { data?: unknown }).data : undefined;
    if (typeof raw === 'string' && raw.toLowerCase().startsWith(offchainLookupSignature)) return true;
  }
  return false;
}

/** The primary name of an address (reverse record, checked forward by the resolver), or null. */
export async function resolveEnsName(chainClient: ChainClient, address: Address, options: EnsOptions = {}): Promise<string | null> {
  return getEnsName(chainClient.client, {
    address,
    universalResolverAddress: resolverOf(chainClient),
    ...(options.gatewayUrls ? { gatewayUrls: options.gatewayUrls } : {}),
  });
}

/** The avatar URL of a name (its `avatar` text record, resolved to a fetchable URL), or null. */
export async function resolveEnsAvatar(chainClient: ChainClient, name: string, options: EnsOptions = {}): Promise<string | null> {
  return getEnsAvatar(chainClient.client, {
    name: normalize(name),
    universalResolverAddress: resolverOf(chainClient),
    ...(options.gatewayUrls ? { gatewayUrls: options.gatewayUrls } : {}),
    ...(options.assetGatewayUrls ? { assetGatewayUrls: options.assetGatewayUrls } : {}),
  });
}

/**
 * A text record of a name as stored (e.g. `avatar`), or null: no URI it names is fetched, so a
 * caller's chosen name cannot make the service request anything but the chain.
 */
export async function resolveEnsText(chainClient: ChainClient, name: string, key: string): Promise<string | null> {
  return getEnsText(chainClient.client, { name: normalize(name), key, universalResolverAddress: resolverOf(chainClient) }).catch(
    (error: unknown) => {
      if (isOffchainLookup(error)) return null;
      throw error;
    },
  );
}

const registryOwnerAbi = [
  {
    type: 'function',
    name: 'owner',
    stateMutability: 'view',
    inputs: [{ name: 'node', type: 'bytes32' }],
    outputs: [{ name: '', type: 'address' }],
  },
] as const;

/** The registry owner of a name (ENSIP-15 normalised), or null when the chain's ENS config has no registry. */
export async function ensNameOwner(chainClient: ChainClient, name: string): Promise<Address | null> {
  const registry = chainClient.config.ens?.registry;
  if (!registry) return null;
  return chainClient.client.readContract({
    address: registry,
    abi: registryOwnerAbi,
    functionName: 'owner',
    args: [namehash(normalize(name))],
  });
}
