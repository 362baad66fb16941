import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseUnits, type Address } from 'viem';
import { chainConfigSchema } from '../src/chain-config';
import { createChainClient, type ChainClient } from '../src/clients';
import { readAtHead, TAIL_SLACK_BLOCKS } from '../src/head-reading';
import { ChainReadError } from '../src/multicall';
import { readTailFlows } from '../src/tail-flows-reader';
import { readWalletSnapshot } from '../src/wallet-snapshot-reader';
import { accountAddress, fundForPool, generatedAddresses, startChainFixture, type ChainFixture } from './helpers';
import { RoundTripCounter } from './round-trip-counter';

jest.setTimeout(60_000);

const e18 = (n: number) => parseUnits(String(n), 18);
const BORROWER = 7;

type JsonRpc = { jsonrpc: '2.0'; id: number; method: string; params: unknown[] };

/**
 * A wallet reading's chain part (`readAtHead`) on a real anvil: the snapshot at the head and the
 * blocks past the index in ONE JSON-RPC round trip, with the same figures as the reads it replaces
 * (`readWalletSnapshot`, then `readTailFlows` of the exact range); a tail longer than its window
 * costs a second round trip, after the caller's guard; and a reorganisation between two answers of
 * one batch (performed on the node by a proxy in the middle of the batch) is caught and read again.
 */
describe('readAtHead: the head and the tail in one round trip', () => {
  let fx: ChainFixture;
  let counter: RoundTripCounter;
  let chain: ChainClient;
  let plain: ChainClient;
  const wallets = generatedAddresses(3, 'head-reading');
  const addresses: Address[] = [...wallets, accountAddress(BORROWER)];
  let indexedTo: bigint;
  let head: bigint;
  let beforeLastTwo: string;

  const rpc = async (method: string, params: unknown[] = []) => {
    const response = await fetch(fx.anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result;
  };

  /** Native value in, mined before the next step reads the head: on a loaded machine anvil answered the send before its block existed. */
  const pay = async (to: Address, value: bigint) => {
    const hash = await fx.as(1).wallet.sendTransaction({ to, value } as never);
    await fx.as(1).public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  };

  beforeAll(async () => {
    fx = await startChainFixture(8453);
    indexedTo = BigInt((await rpc('eth_blockNumber')) as string);
    // the tail: a token transfer in, native value in, collateral supplied, then two more blocks
    await fx.mint([{ symbol: 'DAI', to: wallets[0]!, amount: e18(250) }]);
    await pay(wallets[1]!, e18(2));
    await fundForPool(fx, BORROWER, 'WETH', e18(3));
    await fx.send(BORROWER, fx.contracts.lendingPool!.address, 'supply', [fx.token('WETH'), e18(3), accountAddress(BORROWER), 0]);
    beforeLastTwo = (await rpc('evm_snapshot')) as string;
    await fx.mint([{ symbol: 'DAI', to: wallets[2]!, amount: e18(9) }]);
    await pay(wallets[2]!, e18(1));
    head = BigInt((await rpc('eth_blockNumber')) as string);
    counter = new RoundTripCounter();
    chain = createChainClient(fx.config, { onRequest: counter.onRequest });
    plain = createChainClient(fx.config);
  }, 180_000);
  afterAll(async () => {
    await fx?.stop();
  });
  beforeEach(() => counter.reset());

  const expected = async () => ({
    snapshot: await readWalletSnapshot(plain, addresses),
    tail: await readTailFlows(plain, addresses, indexedTo + 1n, head),
  });

  it('reads the snapshot and the whole tail in one round trip, the same figures as the two reads it replaces', async () => {
    const tailLength = Number(head - indexedTo);
    expect(tailLength).toBeGreaterThanOrEqual(5);
    const reading = await readAtHead(chain, addresses, { indexedTo, confirmations: tailLength });
    expect(counter.count()).toBe(1);
    expect(counter.methods().filter((m) => m === 'eth_call')).toHaveLength(1);
    expect(counter.methods().filter((m) => m === 'eth_getLogs')).toHaveLength(3);
    expect(counter.methods().filter((m) => m === 'eth_getBlockByNumber')).toHaveLength(tailLength + TAIL_SLACK_BLOCKS);
    expect(reading).toEqual(await expected());
    // the tail holds what happened in it: DAI and ETH in, collateral supplied
    const assets = new Set(reading.tail.map((f) => f.asset));
    expect(assets).toContain('native');
    expect(assets).toContain(fx.token('DAI').toLowerCase());
    expect([...assets].some((a) => a.startsWith('collateral:'))).toBe(true);
    expect(reading.tail.every((f) => f.blockNumber > indexedTo && f.blockNumber <= head)).toBe(true);
  });

  it('an index at the head: the snapshot alone, no tail, one round trip', async () => {
    const reading = await readAtHead(chain, addresses, { indexedTo: head, confirmations: 0 });
    expect(counter.count()).toBe(1);
    expect(reading.tail).toEqual([]);
    expect(reading.snapshot).toEqual((await expected()).snapshot);
  });

  it('a tail longer than its window: the rest in a second round trip, after the guard; a guard that refuses stops there', async () => {
    // an index with no confirmation depth, TAIL_SLACK_BLOCKS + 3 blocks behind: 3 blocks past the window
    const confirmations = 0;
    const from = head - BigInt(TAIL_SLACK_BLOCKS + 2);
    const guarded: bigint[] = [];
    const reading = await readAtHead(
      chain,
      addresses,
      { indexedTo: from - 1n, confirmations },
      {
        beforeMore: (snapshot) => void guarded.push(snapshot.block.number),
      },
    );
    expect(counter.count()).toBe(2);
    expect(guarded).toEqual([head]);
    expect(reading.tail).toEqual(await readTailFlows(plain, addresses, from, head));

    counter.reset();
    const refused = readAtHead(
      chain,
      addresses,
      { indexedTo: from - 1n, confirmations },
      {
        beforeMore: () => {
          throw new Error('the index is too far behind');
        },
      },
    );
    await expect(refused).rejects.toThrow('the index is too far behind');
    expect(counter.count()).toBe(1);
  });

  describe('a node in the middle: a reorganisation between two answers of one batch, a window refused', () => {
    let proxy: Server;
    let reorgs = 0;
    let reorgsLeft = 0;
    let refuseBeyondHead = false;

    /** Replaces the last two blocks by two others (real blocks on the node, new timestamps). */
    const reorganise = async () => {
      await rpc('evm_revert', [beforeLastTwo]);
      beforeLastTwo = (await rpc('evm_snapshot')) as string;
      const block = (await rpc('eth_getBlockByNumber', ['latest', false])) as { timestamp: string };
      for (const step of [7, 14]) await rpc('evm_mine', [Number(BigInt(block.timestamp)) + step + reorgs * 100]);
      reorgs += 1;
    };

    beforeAll(async () => {
      // a node that, while armed, reorganises right after answering a batch's eth_call
      proxy = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString()));
        request.on('end', () => {
          void (async () => {
            const parsed = JSON.parse(body) as JsonRpc | JsonRpc[];
            const forward = async (payload: unknown) =>
              (
                await fetch(fx.anvil.rpcUrl, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify(payload),
                })
              ).json();
            let answer: unknown;
            if (!Array.isArray(parsed)) answer = await forward(parsed);
            else {
              const calls = parsed.filter((r) => r.method === 'eth_call');
              const rest = parsed.filter((r) => r.method !== 'eth_call');
              const first = (await Promise.all(calls.map(forward))) as unknown[];
              if (reorgsLeft > 0) {
                reorgsLeft -= 1;
                await reorganise();
              }
              let second = rest.length > 0 ? ((await forward(rest)) as { id: number }[]) : [];
              if (refuseBeyondHead) {
                // as some nodes do: eth_getLogs whose range ends past the head is an error
                const latest = BigInt((await rpc('eth_blockNumber')) as string);
                const beyond = new Set(
                  rest
                    .filter((r) => r.method === 'eth_getLogs' && BigInt((r.params[0] as { toBlock: string }).toBlock) > latest)
                    .map((r) => r.id),
                );
                second = second.map((a) =>
                  beyond.has(a.id)
                    ? { jsonrpc: '2.0', id: a.id, error: { code: -32000, message: 'block range extends beyond current head block' } }
                    : a,
                );
              }
              answer = [...first, ...second];
            }
            response.setHeader('content-type', 'application/json');
            response.end(JSON.stringify(answer));
          })();
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      await new Promise((resolve) => proxy.close(resolve));
    });

    const viaProxy = () =>
      createChainClient(chainConfigSchema.parse({ ...fx.config, rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` }), {
        onRequest: counter.onRequest,
      });

    it('once: caught by the blocks no longer linking to the state read, read again on the new chain', async () => {
      reorgsLeft = 1;
      const reading = await readAtHead(viaProxy(), addresses, { indexedTo, confirmations: Number(head - indexedTo) });
      expect(reorgs).toBe(1);
      expect(counter.count()).toBe(2);
      // the new chain's last two blocks are empty: wallet 2's DAI and ETH are gone from it
      expect(reading).toEqual(await expected());
      expect(reading.tail.some((f) => f.address === wallets[2]!.toLowerCase())).toBe(false);
      expect(reading.tail.some((f) => f.address === wallets[0]!.toLowerCase())).toBe(true);
    });

    it('a node that refuses logs past its head: the exact range in a second round trip, the same figures', async () => {
      refuseBeyondHead = true;
      try {
        const reading = await readAtHead(viaProxy(), addresses, { indexedTo, confirmations: Number(head - indexedTo) });
        expect(counter.count()).toBe(2);
        expect(reading).toEqual(await expected());
      } finally {
        refuseBeyondHead = false;
      }
    });

    it('on every reading: a ChainReadError after the second, never figures from two chains', async () => {
      reorgsLeft = 2;
      const reading = readAtHead(viaProxy(), addresses, { indexedTo, confirmations: Number(head - indexedTo) });
      await expect(reading).rejects.toBeInstanceOf(ChainReadError);
      await expect(reading).rejects.toThrow(/moved during two readings/);
      expect(counter.count()).toBe(2);
    });
  });
});
