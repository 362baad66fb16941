import { createPublicClient, defineChain, webSocket, type Chain, type EIP1193RequestFn, type PublicClient, type Transport } from 'viem';
import { countRpcCall } from '@credit/observability/chain-rpc-metrics';
import type { ChainConfig, ChainRegistry } from './chain-config';
import { keepAliveHttp } from '@credit/http-client/keep-alive-http';
import { redactingTransport } from './rpc-url-redaction';
import { tracedTransport } from './traced-transport';

/** One JSON-RPC round trip: one HTTP request (a JSON-RPC batch counts once) or one WebSocket message. */
export interface RpcRoundTrip {
  chainId: number;
  url: string;
  /** The JSON-RPC methods it carried (several for a batch). */
  methods: string[];
}

export interface ChainClientOptions {
  /** Called before every round trip: metrics, tests counting requests. */
  onRequest?: (trip: RpcRoundTrip) => void;
  /** Per request (viem's default: 10 s). */
  timeoutMs?: number;
  /** Retries of a failed request (viem's default: 3). */
  retryCount?: number;
  /**
   * Merge the `eth_call`s issued in the same tick into one Multicall3 `aggregate3` (viem's
   * multicall batching), for callers of per-item viem actions such as ENS lookups: a loop that
   * starts a lookup per address then costs one round trip, not one per address.
   */
  multicallBatching?: boolean;
}

/** A configured chain with its viem chain (multicall3 and ENS contracts set) and public client. */
export interface ChainClient {
  readonly config: ChainConfig;
  readonly chain: Chain;
  readonly client: PublicClient<Transport, Chain>;
  /**
   * The same chain with JSON-RPC batching: the requests started in one tick leave as ONE HTTP
   * request (`readAtHead`). Over WebSocket, and where absent, the plain client (its requests share
   * one socket and leave together).
   */
  readonly batched?: PublicClient<Transport, Chain>;
}

/** The viem chain for a configured one: the contracts viem's actions look up by name are set. */
function viemChainFor(config: ChainConfig): Chain {
  const contracts: Record<string, { address: `0x${string}` }> = { multicall3: { address: config.multicall3 } };
  if (config.ens?.registry) contracts.ensRegistry = { address: config.ens.registry };
  if (config.ens) contracts.ensUniversalResolver = { address: config.ens.universalResolver };
  const ws = /^wss?:/i.test(config.rpcUrl);
  return defineChain({
    id: config.id,
    name: config.name,
    nativeCurrency: { name: config.nativeName ?? config.nativeSymbol, symbol: config.nativeSymbol, decimals: 18 },
    rpcUrls: { default: ws ? { http: [], webSocket: [config.rpcUrl] } : { http: [config.rpcUrl] } },
    contracts,
  });
}

function methodsOf(body: unknown): string[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as { method?: string } | { method?: string }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map((r) => String(r.method));
  } catch {
    return [];
  }
}

/** Wraps a transport so each request is reported (for transports where a request is one message). */
function countedTransport(transport: Transport, onRequest: (methods: string[]) => void): Transport {
  return (params) => {
    const inner = transport(params);
    const request = ((args, options) => {
      onRequest([args.method]);
      return inner.request(args, options);
    }) as EIP1193RequestFn;
    return { ...inner, request };
  };
}

/** Wraps a transport so each JSON-RPC call's outcome (after viem's retries) is counted per chain (`credit_rpc_calls_total`). */
function meteredTransport(transport: Transport, chain: string): Transport {
  return (params) => {
    const inner = transport(params);
    const request = (async (args, options) => {
      try {
        const result: unknown = await inner.request(args, options);
        countRpcCall(chain, true);
        return result;
      } catch (error) {
        countRpcCall(chain, false);
        throw error;
      }
    }) as EIP1193RequestFn;
    return { ...inner, request };
  };
}

/**
 * The transport of a configured chain: HTTP, without JSON-RPC batching (each request is its own
 * round trip; the readers batch through multicall instead) unless `batch` (the requests of one
 * tick in one HTTP request), or WebSocket for ws(s):// URLs.
 * `onRequest` sees every HTTP request as it is sent (one per batch, were batching on).
 */
function chainTransport(config: ChainConfig, options: ChainClientOptions = {}, batch = false): Transport {
  const { onRequest, timeoutMs, retryCount } = options;
  const common = { ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}), ...(retryCount !== undefined ? { retryCount } : {}) };
  if (/^wss?:/i.test(config.rpcUrl)) {
    const ws = webSocket(config.rpcUrl, common);
    return onRequest ? countedTransport(ws, (methods) => onRequest({ chainId: config.id, url: config.rpcUrl, methods })) : ws;
  }
  // Node's own HTTP client over kept-alive sockets, not the global fetch
  return keepAliveHttp(config.rpcUrl, {
    ...common,
    batch: batch ? { wait: 0 } : false,
    ...(onRequest
      ? {
          onFetchRequest: (_request: Request, init: RequestInit) =>
            void onRequest({ chainId: config.id, url: config.rpcUrl, methods: methodsOf(init.body) }),
        }
      : {}),
  });
}

export function createChainClient(config: ChainConfig, options: ChainClientOptions = {}): ChainClient {
  const chain = viemChainFor(config);
  const clientOf = (jsonRpcBatching: boolean): PublicClient<Transport, Chain> =>
    createPublicClient({
      chain,
      transport: redactingTransport(
        meteredTransport(tracedTransport(chainTransport(config, options, jsonRpcBatching), config.name), config.name),
      ),
      // CCIP-Read off: with it, a caller-chosen name makes this process fetch the URL its resolver
      // names (internal addresses included); offchain names are not resolved (docs/ARCHITECTURE.md).
      ccipRead: false,
      // the whole tick's calls in one aggregate3 (viem's default caps a batch at 1 KB of calldata)
      ...(options.multicallBatching ? { batch: { multicall: { batchSize: 256 * 1024, wait: 0 } } } : {}),
    });
  const client = clientOf(false);
  return { config, chain, client, batched: /^wss?:/i.test(config.rpcUrl) ? client : clientOf(true) };
}

/** One client per configured chain, by chain id. */
export function createChainClients(registry: ChainRegistry, options: ChainClientOptions = {}): ReadonlyMap<number, ChainClient> {
  return new Map(registry.map((config) => [config.id, createChainClient(config, options)]));
}
