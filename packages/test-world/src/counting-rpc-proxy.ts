import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChainRegistry } from '@credit/chain/chain-config';

/**
 * A JSON-RPC proxy that counts: every POST is forwarded as-is to the upstream node and answered
 * with the node's reply, and the test reads how many requests (HTTP round trips) went through and
 * which methods they carried. Point a service's chain registry at `url` to count what it asks a
 * chain for (a cache hit must ask nothing; a batch of 100 must ask no more than a batch of 10).
 */
export interface CountingRpcProxy {
  readonly url: string;
  readonly upstream: string;
  /** HTTP requests forwarded since start or the last `reset`. */
  requests(): number;
  /** Their JSON-RPC methods, in order (several per request for a JSON-RPC batch). */
  methods(): string[];
  reset(): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function methodsOf(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { method?: unknown } | { method?: unknown }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map((r) => String(r.method));
  } catch {
    return ['(unparsable)'];
  }
}

export async function startCountingRpcProxy(upstream: string): Promise<CountingRpcProxy> {
  let methods: string[] = [];
  let requests = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      try {
        const body = await readBody(request);
        if (request.method === 'POST') {
          requests++;
          methods.push(...methodsOf(body));
        }
        const answer = await fetch(upstream, {
          method: request.method ?? 'POST',
          headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
          ...(request.method === 'POST' ? { body } : {}),
        });
        const text = Buffer.from(await answer.arrayBuffer());
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        response.end(text);
      } catch (error) {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`proxy: ${(error as Error).message}`);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    upstream,
    requests: () => requests,
    methods: () => [...methods],
    reset: () => {
      requests = 0;
      methods = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A registry whose every chain goes through its own counting proxy. */
export interface CountingRegistry {
  /** The same chains, `rpcUrl` replaced by the proxies' URLs. */
  readonly registry: ChainRegistry;
  /** Each chain's proxy (closing one makes its chain unreachable for whoever reads through it). */
  readonly proxies: ReadonlyMap<number, CountingRpcProxy>;
  /** Requests per chain id since start or the last `reset`. */
  counts(): Record<number, number>;
  /** JSON-RPC methods per chain id. */
  methods(): Record<number, string[]>;
  /** Requests over every chain. */
  total(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function countingRegistry(registry: ChainRegistry): Promise<CountingRegistry> {
  const proxies = await Promise.all(registry.map(async (chain) => [chain.id, await startCountingRpcProxy(chain.rpcUrl)] as const));
  const byId = new Map(proxies);
  const per = <T>(fn: (p: CountingRpcProxy) => T): Record<number, T> =>
    Object.fromEntries(proxies.map(([id, proxy]) => [id, fn(proxy)])) as Record<number, T>;
  return {
    registry: registry.map((chain) => ({ ...chain, rpcUrl: byId.get(chain.id)!.url })),
    proxies: byId,
    counts: () => per((p) => p.requests()),
    methods: () => per((p) => p.methods()),
    total: () => proxies.reduce((sum, [, p]) => sum + p.requests(), 0),
    reset: () => proxies.forEach(([, p]) => p.reset()),
    close: async () => {
      await Promise.all(proxies.map(([, p]) => p.close()));
    },
  };
}
