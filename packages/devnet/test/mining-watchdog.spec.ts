import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAnvil, type AnvilInstance } from '../src/anvil';
import { rpc } from '../src/json-rpc';
import { startMiningWatchdog, type MiningWatchdog } from '../src/mining-watchdog';

/**
 * The devnet's mining watchdog against a real anvil. anvil's own slip (a ready transaction left
 * unmined while automine is on) cannot be caused at will, so it is played by a JSON-RPC proxy that
 * tells the watchdog automine is on while anvil's is off: the transaction sits in the pool exactly
 * as it does when automine misses it.
 */
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const TO = '0x70997970c51812dc3a010c7d01b50e0d4c3c66dc';
const LOOK_MS = 100;

let anvil: AnvilInstance;
let proxy: Server;
let proxyUrl: string;
const watchdogs: MiningWatchdog[] = [];

/** Forwards every call to anvil, except that automine is always said to be on. */
async function startAutomineLiar(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const call = JSON.parse(body) as { id: number; method: string };
      const answer =
        call.method === 'anvil_getAutomine'
          ? Promise.resolve(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: true }))
          : fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text());
      void answer.then((text) => res.writeHead(200, { 'content-type': 'application/json' }).end(text));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const send = () => rpc<`0x${string}`>(anvil.rpcUrl, 'eth_sendTransaction', [{ from: FROM, to: TO, value: '0x1' }]);
const receipt = (hash: string) => rpc<{ blockNumber: string } | null>(anvil.rpcUrl, 'eth_getTransactionReceipt', [hash]);
const looks = (n: number) => new Promise((resolve) => setTimeout(resolve, n * LOOK_MS));
const warnings: string[] = [];
const watch = (url: string) => {
  const watchdog = startMiningWatchdog(url, { intervalMs: LOOK_MS, warn: (m) => warnings.push(m) });
  watchdogs.push(watchdog);
  return watchdog;
};

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  proxy = await startAutomineLiar(anvil.rpcUrl);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(watchdogs.splice(0).map((w) => w.stop()));
  await rpc(anvil.rpcUrl, 'evm_setAutomine', [true]);
  warnings.length = 0;
});

afterAll(async () => {
  proxy?.close();
  await anvil?.stop();
});

describe('the devnet mining watchdog', () => {
  it('mines a block for a ready transaction that sits in the pool while automine is said to be on', async () => {
    await rpc(anvil.rpcUrl, 'evm_setAutomine', [false]);
    const hash = await send();
    expect(await receipt(hash)).toBeNull();
    const watchdog = watch(proxyUrl);
    for (let i = 0; i < 100 && (await receipt(hash)) === null; i++) await looks(1);
    expect(await receipt(hash)).not.toBeNull();
    // the block is visible before the watchdog's `evm_mine` has answered it and it counted the block
    for (let i = 0; i < 50 && watchdog.mined === 0; i++) await looks(0.1);
    expect(watchdog.mined).toBe(1);
    expect(warnings).toEqual([expect.stringContaining('1 ready transaction(s) left unmined by automine')]);
  });

  it('leaves the pool alone when automine is off (a writer mining its own blocks)', async () => {
    await rpc(anvil.rpcUrl, 'evm_setAutomine', [false]);
    const hash = await send();
    const watchdog = watch(anvil.rpcUrl);
    await looks(10);
    expect(await receipt(hash)).toBeNull();
    expect(watchdog.mined).toBe(0);
    await rpc(anvil.rpcUrl, 'evm_mine', []);
    expect(await receipt(hash)).not.toBeNull();
  });

  it('never mines while automine works: one block per transaction, nothing more', async () => {
    const watchdog = watch(anvil.rpcUrl);
    const before = BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber', []));
    for (let i = 0; i < 5; i++) {
      await send();
      await looks(2);
    }
    expect(BigInt(await rpc<string>(anvil.rpcUrl, 'eth_blockNumber', [])) - before).toBe(5n);
    expect(watchdog.mined).toBe(0);
    expect(warnings).toEqual([]);
  });
});
