import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseChainRegistry } from '../src/chain-config';
import { createChainClient } from '../src/clients';

/**
 * A provider's API key lives in the RPC URL; viem writes that URL into its errors, which reach the
 * logs. A local server answers the way a provider does when it refuses (HTTP 429 / 500, a hang-up),
 * and nothing of the error may carry the key.
 */
const SECRET = 'S3cr3tKeyDoNotLog';

let server: Server;
let port: number;
let answer: 'throttle' | 'fail' | 'hang-up' = 'throttle';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (answer === 'hang-up') return req.socket.destroy();
    res.writeHead(answer === 'throttle' ? 429 : 500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'limit exceeded' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('RPC URLs in errors', () => {
  it.each(['throttle', 'fail', 'hang-up'] as const)('a provider that answers %s: the error names the host, never the key', async (kind) => {
    answer = kind;
    const [config] = parseChainRegistry([
      {
        id: 1,
        name: 'Ethereum',
        rpcUrl: `http://127.0.0.1:${port}/v2/${SECRET}?apikey=${SECRET}`,
        nativeSymbol: 'ETH',
        nativePriceFeed: '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
      },
    ]);
    const { client } = createChainClient(config!, { retryCount: 0, timeoutMs: 2_000 });
    const error = (await client.getBlockNumber().catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(error).toBeInstanceOf(Error);
    const everything = [
      String(error),
      error.message,
      error.stack,
      error.shortMessage,
      error.details,
      JSON.stringify(error),
      String(error.cause),
    ].join('\n');
    expect(everything).not.toContain(SECRET);
    expect(everything).toContain(`127.0.0.1:${port}`);
  });
});

describe('CCIP-Read', () => {
  it('is off on every chain client: a resolver cannot make us fetch a URL of its choosing', () => {
    const [config] = parseChainRegistry([
      {
        id: 1,
        name: 'Ethereum',
        rpcUrl: 'http://127.0.0.1:1',
        nativeSymbol: 'ETH',
        nativePriceFeed: '0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419',
      },
    ]);
    expect(createChainClient(config!).client.ccipRead).toBe(false);
  });
});
