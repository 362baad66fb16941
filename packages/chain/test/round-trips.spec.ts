import { executePlan } from '../src/multicall';
import { parseUnits, type Address } from 'viem';
import { balancePlan } from '../src/balance-reader';
import { chainConfigSchema } from '../src/chain-config';
import { createChainClient, type ChainClient } from '../src/clients';
import { lendingPlan } from '../src/lending-reader';
import { portfolioPlan } from '../src/portfolio-reader';
import { pricePlan } from '../src/price-reader';
import { RoundTripCounter } from './round-trip-counter';
import { readWalletSnapshot } from '../src/wallet-snapshot-reader';
import { accountAddress, fundForPool, generatedAddresses, startChainFixture, type ChainFixture } from './helpers';

jest.setTimeout(60_000);

const e18 = (n: string | number) => parseUnits(String(n), 18);
const LP = 5;
const BORROWER = 6;

/**
 * Round trips for balances, prices and lending positions of 100 addresses on one chain
 * (chain 8453 of the devnet: native + 4 tokens, 4 distinct feeds, 1 pool), counted by the
 * clients' `onRequest` hook (one per HTTP request):
 * - `readWalletSnapshot` (balances + prices + USD values + positions): 1 eth_call in all
 *   (100 × (5 + 1) + 4 × 2 + 2 = 610 calls in one aggregate3), the same for 10 addresses;
 * - the readers one by one: balances 1, prices 1, portfolio (balances + prices) 1, positions 1;
 * - past `maxCallsPerMulticall` the read is split: ceil(610 / 50) = 13 eth_calls at one block,
 *   with the same results.
 */
describe('RPC round trips do not grow with addresses or tokens', () => {
  let fx: ChainFixture;
  let counter: RoundTripCounter;
  let chain: ChainClient;
  const borrower = accountAddress(BORROWER);
  // 99 generated addresses holding i+1 milli-ETH and i+1 DAI, plus a borrower: 100 in all.
  const generated = generatedAddresses(99, 'round-trips');
  const addresses: Address[] = [...generated, borrower];

  beforeAll(async () => {
    fx = await startChainFixture(8453);
    for (const [i, address] of generated.entries()) await fx.setNative(address, e18(i + 1) / 1000n);
    await fx.mint(generated.map((to, i) => ({ symbol: 'DAI', to, amount: e18(i + 1) })));
    const pool = fx.contracts.lendingPool!.address;
    await fundForPool(fx, LP, 'DAI', e18(100_000));
    await fx.send(LP, pool, 'supply', [fx.token('DAI'), e18(100_000), accountAddress(LP), 0]);
    await fundForPool(fx, BORROWER, 'WETH', e18(1));
    await fx.send(BORROWER, pool, 'supply', [fx.token('WETH'), e18(1), borrower, 0]);
    await fx.send(BORROWER, pool, 'borrow', [fx.token('DAI'), e18(1_000), 2, 0, borrower]);
    counter = new RoundTripCounter();
    chain = createChainClient(fx.config, { onRequest: counter.onRequest });
    // a devnet and some 110 transactions: seconds alone, over a minute once on a CI machine at full load
  }, 180_000);
  afterAll(async () => {
    await fx?.stop();
  });
  beforeEach(() => counter.reset());

  it('balances, prices and positions of 100 addresses: 1 eth_call, as for 10', async () => {
    const ten = await readWalletSnapshot(chain, addresses.slice(0, 10));
    expect(counter.methods()).toEqual(['eth_call']);
    expect(ten.portfolio.addresses).toHaveLength(10);

    counter.reset();
    const hundred = await readWalletSnapshot(chain, addresses);
    expect(counter.count()).toBe(1);
    expect(counter.methods(8453)).toEqual(['eth_call']);

    expect(hundred.portfolio.addresses).toHaveLength(100);
    expect(hundred.lending.addresses).toHaveLength(100);
    // the values are real: address i holds (i+1)/1000 ETH and i+1 DAI
    const i = 41;
    const held = hundred.portfolio.addresses[i]!;
    expect(held.address).toBe(generated[i]);
    expect(held.assets.map((a) => [a.asset.symbol, a.amount])).toEqual([
      ['ETH', e18(42) / 1000n],
      ['WETH', 0n],
      ['DAI', e18(42)],
      ['USDC', 0n],
      ['VOLT', 0n],
    ]);
    expect(held.total.usd).toBe('168.00'); // 0.042 × 3000 + 42 × 1
    const position = hundred.lending.addresses[99]!.positions[0]!;
    expect([position.collateral!.usd, position.debt!.usd]).toEqual(['3000.00', '1000.00']);
    expect(hundred.lending.addresses[0]!.positions[0]!.active).toBe(false);
    expect(hundred.portfolio.block).toEqual(hundred.lending.block);
  });

  it('each reader alone: 1 eth_call per read, whatever the number of addresses', async () => {
    for (const list of [addresses.slice(0, 10), addresses]) {
      counter.reset();
      await executePlan(chain, balancePlan(chain.config, list));
      expect(counter.count()).toBe(1);
      counter.reset();
      await executePlan(chain, pricePlan(chain.config));
      expect(counter.count()).toBe(1);
      counter.reset();
      await executePlan(chain, portfolioPlan(chain.config, list));
      expect(counter.count()).toBe(1);
      counter.reset();
      await executePlan(chain, lendingPlan(chain.config, list));
      expect(counter.count()).toBe(1);
    }
  });

  it('splits a read past maxCallsPerMulticall into chunks at one block, with the same results', async () => {
    const single = await readWalletSnapshot(chain, addresses);
    counter.reset();
    const chunked = createChainClient(chainConfigSchema.parse({ ...fx.config, maxCallsPerMulticall: 50 }), {
      onRequest: counter.onRequest,
    });
    const split = await readWalletSnapshot(chunked, addresses);
    expect(counter.count()).toBe(13); // ceil((100 × 6 + 8 + 2) / 50)
    expect(counter.methods()).toEqual(Array(13).fill('eth_call'));
    expect(split).toEqual(single);
  });

  it('over WebSocket (ws:// RPC URL): one message per read as well', async () => {
    const wsUrl = fx.config.rpcUrl.replace(/^http/, 'ws');
    const ws = createChainClient(chainConfigSchema.parse({ ...fx.config, rpcUrl: wsUrl }), { onRequest: counter.onRequest });
    try {
      const viaWs = await readWalletSnapshot(ws, addresses);
      expect(counter.trips).toEqual([{ chainId: 8453, url: wsUrl, methods: ['eth_call'] }]);
      expect(viaWs).toEqual(await readWalletSnapshot(chain, addresses));
    } finally {
      const transport = ws.client.transport as unknown as { getRpcClient(): Promise<{ close(): void }> };
      (await transport.getRpcClient()).close();
    }
  });
});
