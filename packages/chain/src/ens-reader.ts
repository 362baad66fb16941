import { decodeErrorResult, offchainLookupSignature, parseAbi, type Address, type AssetGatewayUrls, type Hex } from 'viem';
import { getEnsAddress, getEnsAvatar, getEnsText, namehash, normalize } from 'viem/ens';
import type { ChainClient } from './clients';
import { executePlan, type BlockRef } from './multicall';

/**
 * ENS against the chain's configured universal resolver. Forward lookups, text records and avatars
 * go through viem's own actions, per name: one eth_call to the universal resolver each (plus
 * CCIP-read gateway requests for offchain names), and an avatar is a text-record lookup followed by
 * whatever the record points to (an HTTP fetch for an https / ipfs URI, an eth_call and a metadata
 * fetch for an NFT avatar). Reverse lookups (`resolveEnsNames`) go out together in one multicall.
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

/**
 * The universal resolver's reverse lookup (ENSIP-19: the address, its coin type, the CCIP-read
 * gateways) and the errors with which it says "no primary name", as viem's `getEnsName` reads them.
 */
const universalResolverReverseAbi = parseAbi([
  'function reverseWithGateways(bytes lookupAddress, uint256 coinType, string[] gateways) view returns (string name, address resolver, address reverseResolver)',
  'error HttpError(uint16 status, string message)',
  'error ResolverError(bytes errorData)',
  'error ResolverNotContract(bytes name, address resolver)',
  'error ResolverNotFound(bytes name)',
  'error ReverseAddressMismatch(string primary, bytes primaryAddress)',
  'error UnsupportedResolverProfile(bytes4 selector)',
]);
const NO_PRIMARY_NAME = new Set([
  'HttpError',
  'ResolverError',
  'ResolverNotContract',
  'ResolverNotFound',
  'ReverseAddressMismatch',
  'UnsupportedResolverProfile',
]);
/** ENSIP-21's local batch gateway: what viem passes when no gateway is given. */
const LOCAL_BATCH_GATEWAY = 'x-batch-gateway:true';
const ETH_COIN_TYPE = 60n;

/** Whether a reverse lookup's revert means "no primary name" (one of the resolver's null errors). */
function isNoPrimaryName(revertData: Hex | undefined): boolean {
  if (revertData === undefined || revertData.length < 10) return false;
  try {
    return NO_PRIMARY_NAME.has(decodeErrorResult({ abi: universalResolverReverseAbi, data: revertData }).errorName);
  } catch {
    return false;
  }
}

/** The primary names of addresses, in the order asked, and the block they were read at. */
export interface EnsNamesReading {
  names: (string | null)[];
  block: BlockRef;
}

/**
 * The primary names of addresses (reverse record, checked forward by the resolver), null where
 * there is none, in the order asked: one Multicall3 `aggregate3` for all of them, which reads the
 * block's number and time too (a caller judging an index against the head needs no other read). A
 * revert other than the resolver's "no primary name" errors (an offchain name's OffchainLookup,
 * CCIP-Read being off) throws, as `getEnsName` does; a "no name" costs no error object, which a
 * batch of mostly nameless addresses otherwise spends most of its ENS time building.
 */
export async function resolveEnsNames(chainClient: ChainClient, addresses: readonly Address[]): Promise<EnsNamesReading> {
  const resolver = resolverOf(chainClient);
  return executePlan(chainClient, {
    calls: addresses.map((address) => ({
      address: resolver,
      abi: universalResolverReverseAbi,
      functionName: 'reverseWithGateways',
      args: [address, ETH_COIN_TYPE, [LOCAL_BATCH_GATEWAY]],
    })),
    decode: (results, block) => ({
      block,
      names: results.map((result, i) => {
        if (result.ok) return (result.value as readonly [string, Address, Address])[0] || null;
        if (isNoPrimaryName(result.revertData)) return null;
        throw new Error(`the reverse lookup of ${addresses[i]} failed: ${result.error}`);
      }),
    }),
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
