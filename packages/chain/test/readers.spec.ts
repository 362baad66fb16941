import { parseUnits, type Address } from 'viem';
import { devnetAbi } from '@credit/devnet/abis';
import { loadArtifacts } from '@credit/devnet/compile';
import { Deployer } from '@credit/devnet/deployer';
import { balancePlan } from '../src/balance-reader';
import { ChainReadError, executePlan } from '../src/multicall';
import { chainConfigSchema, type ChainConfig } from '../src/chain-config';
import { createChainClient, type ChainClient } from '../src/clients';
import { formatDecimal } from '../src/decimal';
import { lendingPlan } from '../src/lending-reader';
import { portfolioPlan } from '../src/portfolio-reader';
import { pricePlan, type PricesReading } from '../src/price-reader';
import { accountAddress, fundForPool, generatedAddresses, startChainFixture, type ChainFixture } from './helpers';

const priceOf = (reading: PricesReading, symbol: string) =>
  reading.prices.find((p) => p.asset.symbol.toUpperCase() === symbol.toUpperCase());

jest.setTimeout(60_000);

const e18 = (n: string) => parseUnits(n, 18);
const LP = 5;
const BORROWER = 6;

/**
 * Seeded on a fresh devnet chain 8453 (feeds as deployed: ETH 3000, DAI 1, USDC 1, VOLT 2.5 USD):
 * - alice: 1.5 ETH, 2 WETH, 100 DAI, 12.345678 USDC, 3 VOLT;
 * - dust: 0.004 DAI and 0.004 USDC (each worth 0.00, together 0.01);
 * - empty: nothing at all;
 * - the LP supplies 1,000,000 DAI; the borrower supplies 10 WETH and borrows 5,000 DAI.
 */
describe('readers on a seeded devnet chain', () => {
  let fx: ChainFixture;
  let chain: ChainClient;
  const [alice, dust, empty] = generatedAddresses(3, 'readers') as [Address, Address, Address];
  const lp = accountAddress(LP);
  const borrower = accountAddress(BORROWER);

  beforeAll(async () => {
    fx = await startChainFixture(8453);
    chain = createChainClient(fx.config);
    await fx.setNative(alice, e18('1.5'));
    await fx.mint([
      { symbol: 'WETH', to: alice, amount: e18('2') },
      { symbol: 'DAI', to: alice, amount: e18('100') },
      { symbol: 'USDC', to: alice, amount: 12_345_678n },
      { symbol: 'VOLT', to: alice, amount: e18('3') },
      { symbol: 'DAI', to: dust, amount: e18('0.004') },
      { symbol: 'USDC', to: dust, amount: 4_000n },
    ]);
    const pool = fx.contracts.lendingPool!.address;
    await fundForPool(fx, LP, 'DAI', e18('1000000'));
    await fx.send(LP, pool, 'supply', [fx.token('DAI'), e18('1000000'), lp, 0]);
    await fundForPool(fx, BORROWER, 'WETH', e18('10'));
    await fx.send(BORROWER, pool, 'supply', [fx.token('WETH'), e18('10'), borrower, 0]);
    await fx.send(BORROWER, pool, 'borrow', [fx.token('DAI'), e18('5000'), 2, 0, borrower]);
  });
  afterAll(async () => {
    await fx?.stop();
  });

  it('reads native and token balances of many addresses exactly', async () => {
    const reading = await executePlan(chain, balancePlan(chain.config, [alice, dust, empty, borrower, alice.toLowerCase()]));
    expect(reading.chainId).toBe(8453);
    expect(reading.block.number).toBeGreaterThan(0n);
    // duplicates count once, order kept, checksummed
    expect(reading.addresses.map((a) => a.address)).toEqual([alice, dust, empty, borrower]);
    const table = Object.fromEntries(
      reading.addresses.map((a) => [a.address, Object.fromEntries(a.balances.map((b) => [b.asset.symbol, b.amount]))]),
    );
    expect(table[alice]).toEqual({ ETH: e18('1.5'), WETH: e18('2'), DAI: e18('100'), USDC: 12_345_678n, VOLT: e18('3') });
    expect(table[dust]).toEqual({ ETH: 0n, WETH: 0n, DAI: e18('0.004'), USDC: 4_000n, VOLT: 0n });
    expect(table[empty]).toEqual({ ETH: 0n, WETH: 0n, DAI: 0n, USDC: 0n, VOLT: 0n });
    expect(table[borrower]).toMatchObject({ WETH: 0n, DAI: e18('5000') });
    const usdc = reading.addresses[0]!.balances.find((b) => b.asset.symbol === 'USDC')!;
    expect(usdc.asset).toMatchObject({ kind: 'token', name: 'USD Coin', decimals: 6, token: fx.token('USDC') });
    expect(formatDecimal(usdc.units!)).toBe('12.345678');
    expect(reading.addresses[0]!.balances[0]!.asset).toMatchObject({ kind: 'native', symbol: 'ETH', decimals: 18, token: null });
  });

  it('narrows balances to chosen symbols', async () => {
    const reading = await executePlan(chain, balancePlan(chain.config, [alice], { symbols: ['usdc', 'ETH'] }));
    expect(reading.addresses[0]!.balances.map((b) => [b.asset.symbol, b.amount])).toEqual([
      ['ETH', e18('1.5')],
      ['USDC', 12_345_678n],
    ]);
  });

  it('reads every feed as deployed', async () => {
    const reading = await executePlan(chain, pricePlan(chain.config));
    const bySymbol = Object.fromEntries(reading.prices.map((p) => [p.asset.symbol, [p.status, formatDecimal(p.usdPerUnit!)]]));
    expect(bySymbol).toEqual({
      ETH: ['ok', '3000.00000000'],
      WETH: ['ok', '3000.00000000'],
      DAI: ['ok', '1.00000000'],
      USDC: ['ok', '1.00000000'],
      VOLT: ['ok', '2.50000000'],
    });
    const eth = priceOf(reading, 'eth')!;
    expect(eth.round).toMatchObject({
      feed: fx.feed('ETH / USD'),
      decimals: 8,
      answer: 3_000n * 10n ** 8n,
      roundId: 1n,
      answeredInRound: 1n,
    });
    expect(eth.ageSeconds).toBeLessThan(3_600n);
    expect(priceOf(reading, 'WETH')!.round.feed).toBe(fx.feed('ETH / USD'));
  });

  it('values every asset in USD, exact until rounded to cents at the edge', async () => {
    const reading = await executePlan(chain, portfolioPlan(chain.config, [alice, dust, empty]));
    const [a, d, e] = reading.addresses as [(typeof reading.addresses)[0], (typeof reading.addresses)[0], (typeof reading.addresses)[0]];
    expect(a.assets.map((v) => [v.asset.symbol, v.value!.usd])).toEqual([
      ['ETH', '4500.00'],
      ['WETH', '6000.00'],
      ['DAI', '100.00'],
      ['USDC', '12.35'],
      ['VOLT', '7.50'],
    ]);
    expect(formatDecimal(a.assets[3]!.value!.exact)).toBe('12.34567800000000');
    expect(a.total).toMatchObject({ cents: 1_061_985n, usd: '10619.85' });
    expect(a.complete).toBe(true);
    // 0.004 DAI + 0.004 USDC: 0.00 each, 0.01 together
    expect(d.assets.map((v) => v.value!.usd)).toEqual(['0.00', '0.00', '0.00', '0.00', '0.00']);
    expect(d.total.usd).toBe('0.01');
    expect(e.total.usd).toBe('0.00');
    expect(reading).toMatchObject({ chainId: 8453, chainName: 'Base' });
  });

  it('reads lending collateral, debt and health factor per pool', async () => {
    const reading = await executePlan(chain, lendingPlan(chain.config, [borrower, lp, alice]));
    const [b, l, a] = reading.addresses.map((x) => x.positions[0]!);
    // 10 WETH × 3000 = 30,000 USD; 5,000 DAI debt; HF = 30,000 × 0.825 / 5,000 = 4.95
    expect(b!.pool).toEqual({ name: 'Base lending pool', address: fx.contracts.lendingPool!.address });
    expect(b!.data).toEqual({
      totalCollateralBase: 30_000n * 10n ** 8n,
      totalDebtBase: 5_000n * 10n ** 8n,
      availableBorrowsBase: 19_000n * 10n ** 8n,
      currentLiquidationThreshold: 8_250n,
      ltv: 8_000n,
      healthFactor: 4_950_000_000_000_000_000n,
    });
    expect([b!.collateral!.usd, b!.debt!.usd, b!.availableBorrows!.usd]).toEqual(['30000.00', '5000.00', '19000.00']);
    expect(formatDecimal(b!.healthFactor!)).toBe('4.950000000000000000');
    expect(b).toMatchObject({ hasDebt: true, active: true });
    // supplier without debt: the pool answers max uint256, read as "no health factor"
    expect(l).toMatchObject({ healthFactor: null, hasDebt: false, active: true, collateral: { usd: '1000000.00' }, debt: { usd: '0.00' } });
    expect(a).toMatchObject({ healthFactor: null, hasDebt: false, active: false, collateral: { usd: '0.00' } });
  });

  describe('feeds that cannot be trusted are flagged, never replaced', () => {
    let flagged: ChainClient;
    let tokens: Record<'NEG' | 'ZERO' | 'OLD' | 'OLDOK' | 'NOFEED', Address>;

    beforeAll(async () => {
      const d = new Deployer(fx.as(0), loadArtifacts());
      const owner = d.address;
      const now = (await fx.as(0).public.getBlock()).timestamp;
      const negFeed = await d.deploy('MockAggregatorV3', [8, 'NEG / USD', -5n, owner]);
      const zeroFeed = await d.deploy('MockAggregatorV3', [8, 'ZERO / USD', 0n, owner]);
      const oldFeed = await d.deploy('MockAggregatorV3', [8, 'OLD / USD', 7n * 10n ** 8n, owner]);
      await d.write(oldFeed, devnetAbi('MockAggregatorV3'), 'setAnswerAt', [7n * 10n ** 8n, now - 2n * 86_400n]);
      const deployToken = async (symbol: string) => {
        const address = await d.deploy('DevToken', [symbol, symbol, 18, owner]);
        await d.write(address, devnetAbi('DevToken'), 'mint', [alice, e18('1')]);
        return address;
      };
      tokens = {
        NEG: await deployToken('NEG'),
        ZERO: await deployToken('ZERO'),
        OLD: await deployToken('OLD'),
        OLDOK: await deployToken('OLDOK'),
        NOFEED: await deployToken('NOFEED'),
      };
      const token = (symbol: keyof typeof tokens, priceFeed: Address, extra: object = {}) => ({
        symbol,
        name: symbol,
        address: tokens[symbol],
        decimals: 18,
        priceFeed,
        ...extra,
      });
      const config: ChainConfig = chainConfigSchema.parse({
        ...fx.config,
        tokens: [
          ...fx.config.tokens,
          token('NEG', negFeed),
          token('ZERO', zeroFeed),
          token('OLD', oldFeed),
          token('OLDOK', oldFeed, { priceMaxAgeSeconds: 3 * 86_400 }),
          token('NOFEED', fx.token('DAI')), // a contract without latestRoundData
        ],
      });
      flagged = createChainClient(config);
    });

    it('reports the status of each feed with what it answered', async () => {
      const reading = await executePlan(flagged, pricePlan(flagged.config, { symbols: ['NEG', 'ZERO', 'OLD', 'OLDOK', 'NOFEED', 'DAI'] }));
      const status = Object.fromEntries(reading.prices.map((p) => [p.asset.symbol, p.status]));
      expect(status).toEqual({ DAI: 'ok', NEG: 'non_positive', ZERO: 'non_positive', OLD: 'stale', OLDOK: 'ok', NOFEED: 'unavailable' });
      const neg = priceOf(reading, 'NEG')!;
      expect(neg.round.answer).toBe(-5n);
      expect(neg.usdPerUnit).toBeNull();
      const old = priceOf(reading, 'OLD')!;
      expect(old.ageSeconds).toBeGreaterThanOrEqual(2n * 86_400n);
      expect(formatDecimal(old.usdPerUnit!)).toBe('7.00000000'); // shown, flagged stale
      const none = priceOf(reading, 'NOFEED')!;
      // a token has decimals() too, but no round: nothing to price with
      expect(none.round).toMatchObject({ answer: null, updatedAt: null, decimals: 18 });
      expect(none.round.error).toMatch(/reverted/);
    });

    it('leaves unpriced holdings out of the total and says so', async () => {
      const reading = await executePlan(flagged, portfolioPlan(flagged.config, [alice, empty]));
      const [a, e] = reading.addresses;
      const values = Object.fromEntries(a!.assets.map((v) => [v.asset.symbol, v.value?.usd ?? v.reason]));
      expect(values).toEqual({
        ETH: '4500.00',
        WETH: '6000.00',
        DAI: '100.00',
        USDC: '12.35',
        VOLT: '7.50',
        NEG: 'price non_positive',
        ZERO: 'price non_positive',
        OLD: 'price stale',
        OLDOK: '7.00',
        NOFEED: expect.stringMatching(/^price unavailable: reverted/),
      });
      expect(a!.total.usd).toBe('10626.85');
      expect(a!.complete).toBe(false);
      // nothing held: zero is zero, whatever the price
      expect(e!.complete).toBe(true);
      expect(e!.total.usd).toBe('0.00');
    });
  });

  it('fails the whole read, with the chain named, when the node or Multicall3 is missing', async () => {
    const noMulticall = createChainClient(chainConfigSchema.parse({ ...fx.config, multicall3: fx.token('DAI') }));
    await expect(executePlan(noMulticall, balancePlan(noMulticall.config, [alice]))).rejects.toThrow(ChainReadError);
    await expect(executePlan(noMulticall, balancePlan(noMulticall.config, [alice]))).rejects.toThrow(
      /^chain 8453: multicall of 7 calls at 0x/,
    );
    const down = createChainClient(chainConfigSchema.parse({ ...fx.config, rpcUrl: 'http://127.0.0.1:9' }), { retryCount: 0 });
    await expect(executePlan(down, pricePlan(down.config))).rejects.toMatchObject({ name: 'ChainReadError', chainId: 8453 });
  });
});
