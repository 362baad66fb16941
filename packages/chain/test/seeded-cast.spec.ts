import { executePlan } from '../src/multicall';
import { parseAbiItem, parseEther, parseUnits, type Address } from 'viem';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { ENS_HOLDER_AVATAR, ENS_HOLDER_NAME } from '@credit/devnet/seed/cast';
import { balancePlan } from '../src/balance-reader';
import { createChainClient, type ChainClient } from '../src/clients';
import { registryFromDevnetState } from '../src/devnet-registry';
import { resolveEnsAddress, resolveEnsAvatar, resolveEnsNames } from '../src/ens-reader';
import { lendingPlan } from '../src/lending-reader';
import { pricePlan } from '../src/price-reader';

/**
 * The readers against the seeded devnet: every figure asserted here is what the seeding
 * (packages/devnet/src/seed/cast.ts) did, or, where the pool computed it (a liquidation's seized
 * collateral), what the chain's own event log says.
 */
let devnet: Devnet;
let eth: ChainClient;
let base: ChainClient;

beforeAll(async () => {
  devnet = await startDevnet(seededDevnetOptions({ populationSize: 10, seed: 'chain-cast-test' }));
  const registry = registryFromDevnetState(devnet.state, { chainIds: [1, 8453] });
  eth = createChainClient(registry.find((c) => c.id === 1)!);
  base = createChainClient(registry.find((c) => c.id === 8453)!);
}, 120_000);
afterAll(() => devnet?.stop());

const cast = () => devnet.state.cast;
const WAD = 10n ** 18n;

async function balancesOf(client: ChainClient, address: Address): Promise<Record<string, bigint | null>> {
  const reading = await executePlan(client, balancePlan(client.config, [address]));
  return Object.fromEntries(reading.addresses[0]!.balances.map((b) => [b.asset.symbol, b.amount]));
}

async function positionOf(client: ChainClient, address: Address) {
  const reading = await executePlan(client, lendingPlan(client.config, [address]));
  return reading.addresses[0]!.positions[0]!;
}

describe('the seeded cast, read back', () => {
  it('the healthy borrower: 19 WETH, 20,000 DAI borrowed and held, 500 USDC received; 30 WETH of collateral', async () => {
    const who = cast().healthy_borrower!.address as Address;
    const b = await balancesOf(eth, who);
    expect(b.WETH).toBe(19n * WAD);
    expect(b.DAI).toBe(20_000n * WAD);
    expect(b.USDC).toBe(parseUnits('500', 6));
    const p = await positionOf(eth, who);
    expect(p.data!.totalDebtBase).toBe(20_000n * 10n ** 8n);
    const ethUsd = await latestAnswer(eth, 'ETH / USD');
    expect(p.data!.totalCollateralBase).toBe(30n * ethUsd);
    expect(p.hasDebt).toBe(true);
    expect(p.healthFactor!.value).toBeGreaterThan(0n);
  });

  it('the liquidated wallet: the liquidation the log records, then repaid and withdrawn', async () => {
    const who = cast().liquidated!.address as Address;
    const logs = await eth.client.getLogs({
      address: poolOf(eth),
      event: parseAbiItem(
        'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
      ),
      args: { user: who },
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    const seized = logs[0]!.args.liquidatedCollateralAmount!;
    expect(logs[0]!.args.debtToCover).toBe(8_750n * WAD);
    const b = await balancesOf(eth, who);
    expect(b.WETH).toBe(8n * WAD - seized);
    expect(b.DAI).toBe(17_500n * WAD - 8_750n * WAD);
    const p = await positionOf(eth, who);
    expect(p.data!.totalCollateralBase).toBe(0n);
    expect(p.data!.totalDebtBase).toBe(0n);
    expect(p.hasDebt).toBe(false);
  });

  it('the ENS holder: the name resolves both ways through viem, with its avatar; 1,500 USDC', async () => {
    const member = cast().ens_holder!;
    expect(member.ens).toBe(ENS_HOLDER_NAME);
    expect(await resolveEnsAddress(eth, ENS_HOLDER_NAME)).toBe(member.address);
    expect((await resolveEnsNames(eth, [member.address as Address])).names).toEqual([ENS_HOLDER_NAME]);
    expect(await resolveEnsAvatar(eth, ENS_HOLDER_NAME)).toBe(ENS_HOLDER_AVATAR);
    expect((await balancesOf(eth, member.address as Address)).USDC).toBe(parseUnits('1500', 6));
  });

  it('the multichain wallet: the same history on both scoring chains', async () => {
    const who = cast().multichain!.address as Address;
    for (const client of [eth, base]) {
      expect((await balancesOf(client, who)).USDC).toBe(parseUnits('2750', 6));
      const p = await positionOf(client, who);
      expect(p.data!.totalCollateralBase).toBe(5_000n * 10n ** 8n);
      expect(p.data!.totalDebtBase).toBe(0n);
    }
  });

  it('the new wallet: 0.3 ETH given, 0.05 sent plus the gas of its one transaction', async () => {
    const who = cast().new_wallet!.address as Address;
    const count = await base.client.getTransactionCount({ address: who });
    expect(count).toBe(1);
    const b = await balancesOf(base, who);
    expect(b.ETH).toBeLessThan(parseEther('0.25'));
    expect(b.ETH).toBeGreaterThan(parseEther('0.249'));
  });

  it('every feed is fresh after start (the devnet keeps a heartbeat), so no price is left out', async () => {
    for (const client of [eth, base]) {
      const prices = await executePlan(client, pricePlan(client.config));
      expect(prices.prices.map((p) => [p.asset.symbol, p.status])).toEqual(prices.prices.map((p) => [p.asset.symbol, 'ok']));
    }
  });

  it('the empty address: nothing anywhere', async () => {
    const who = cast().empty!.address as Address;
    for (const client of [eth, base]) {
      const b = await balancesOf(client, who);
      expect(Object.values(b).every((v) => v === 0n)).toBe(true);
      expect((await positionOf(client, who)).active).toBe(false);
    }
  });
});

function poolOf(client: ChainClient): Address {
  return client.config.lendingPools[0]!.address as Address;
}

async function latestAnswer(client: ChainClient, description: string): Promise<bigint> {
  const address = devnet.contracts[client.config.id]!.priceFeeds[description]!;
  const [, answer] = await client.client.readContract({
    address,
    abi: [parseAbiItem('function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)')],
    functionName: 'latestRoundData',
  });
  return answer;
}
