import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy that answers every request `delayMs` late, as a remote RPC provider does (tens
 * to hundreds of ms) where the devnet answers in one: put in front of the payments service's chain,
 * it makes the window between a payment's verification and its settlement as wide as it is in
 * production, so an attack timed into it lands there every time.
 */
export interface SlowRpcProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startSlowRpcProxy(upstream: string, delayMs: number): Promise<SlowRpcProxy> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        try {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          const answer = await fetch(upstream, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: Buffer.concat(chunks),
          });
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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
