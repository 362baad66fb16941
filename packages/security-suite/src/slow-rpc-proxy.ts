import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy that answers requests `delayMs` late, as a remote RPC provider does (tens to
 * hundreds of ms) where the devnet answers in one: put in front of the payments service's chain,
 * it makes the window between a payment's verification and its settlement as wide as it is in
 * production, so an attack timed into it lands there every time. With `methods`, only those are
 * late (say `eth_getTransactionReceipt`: a transaction mined at once whose receipt is slow to come),
 * the rest pass at once.
 */
export interface SlowRpcProxy {
  readonly url: string;
  /** How many requests of `method` went through (a batch counts each of its calls). */
  count(method: string): number;
  close(): Promise<void>;
}

export async function startSlowRpcProxy(
  upstream: string,
  delayMs: number,
  options: { methods?: readonly string[] } = {},
): Promise<SlowRpcProxy> {
  const counts = new Map<string, number>();
  const late = (body: Buffer): boolean => {
    let calls: { method?: unknown }[];
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { method?: unknown } | { method?: unknown }[];
      calls = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      calls = [];
    }
    for (const call of calls) {
      if (typeof call.method === 'string') counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
    }
    return options.methods === undefined || calls.some((call) => options.methods!.includes(String(call.method)));
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        try {
          const body = Buffer.concat(chunks);
          if (late(body)) await new Promise((resolve) => setTimeout(resolve, delayMs));
          const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        } catch (error) {
          response.writeHead(502, { 'content-type': 'text/plain' });
          response.end(`proxy: ${(error as Error).message}`);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: (method) => counts.get(method) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
