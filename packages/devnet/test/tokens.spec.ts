import { parseUnits, type Address } from 'viem';
import { devnetAbi } from '../src/abis';
import { account, startTestChain, type TestChain } from './helpers';

describe('ERC-20 tokens and price feeds', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await startTestChain(1);
  }, 30_000);
  afterAll(async () => {
    await chain?.anvil.stop();
  });

  const token = devnetAbi('DevToken');
  const feed = devnetAbi('MockAggregatorV3');

  it('deploys WETH, DAI, USDC and VOLT with their names, symbols and decimals', async () => {
    const client = chain.as(0).public;
    for (const [symbol, name, decimals] of [
      ['WETH', 'Wrapped Ether', 18],
      ['DAI', 'Dai Stablecoin', 18],
      ['USDC', 'USD Coin', 6],
      ['VOLT', 'Volt Token', 18],
    ] as const) {
      const address = chain.contracts.tokens[symbol]!.address;
      expect(await client.readContract({ address, abi: token, functionName: 'name' })).toBe(name);
      expect(await client.readContract({ address, abi: token, functionName: 'symbol' })).toBe(symbol);
      expect(await client.readContract({ address, abi: token, functionName: 'decimals' })).toBe(decimals);
    }
  });

  it('lets the owner mint, anyone transfer, and nobody else mint', async () => {
    const owner = chain.as(0);
    const alice = chain.as(1);
    const bob = account(2).address;
    const dai = chain.contracts.tokens.DAI!.address;
    const balance = (who: Address) => owner.public.readContract({ address: dai, abi: token, functionName: 'balanceOf', args: [who] });

    await owner.public.waitForTransactionReceipt({
      hash: await owner.wallet.writeContract({
        address: dai,
        abi: token,
        functionName: 'mint',
        args: [alice.wallet.account.address, parseUnits('100', 18)],
      }),
    });
    expect(await balance(alice.wallet.account.address)).toBe(parseUnits('100', 18));
    expect(await owner.public.readContract({ address: dai, abi: token, functionName: 'totalSupply' })).toBe(parseUnits('100', 18));

    await alice.public.waitForTransactionReceipt({
      hash: await alice.wallet.writeContract({ address: dai, abi: token, functionName: 'transfer', args: [bob, parseUnits('30', 18)] }),
    });
    expect(await balance(alice.wallet.account.address)).toBe(parseUnits('70', 18));
    expect(await balance(bob)).toBe(parseUnits('30', 18));

    await expect(
      alice.public.simulateContract({ account: alice.wallet.account, address: dai, abi: token, functionName: 'mint', args: [bob, 1n] }),
    ).rejects.toThrow(/NotOwner/);
  });

  it('answers latestRoundData with 8 decimals, and each update is a new round stamped with the block time', async () => {
    const owner = chain.as(0);
    const address = chain.contracts.priceFeeds['ETH / USD']!;
    expect(chain.contracts.nativePriceFeed).toBe(address);
    expect(chain.contracts.tokens.WETH!.priceFeed).toBe(address);
    expect(await owner.public.readContract({ address, abi: feed, functionName: 'decimals' })).toBe(8);
    expect(await owner.public.readContract({ address, abi: feed, functionName: 'description' })).toBe('ETH / USD');
    const [round1, answer1] = (await owner.public.readContract({ address, abi: feed, functionName: 'latestRoundData' })) as readonly [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    expect(round1).toBe(1n);
    expect(answer1).toBe(3000n * 10n ** 8n);

    const receipt = await owner.public.waitForTransactionReceipt({
      hash: await owner.wallet.writeContract({ address, abi: feed, functionName: 'setAnswer', args: [2_500n * 10n ** 8n] }),
    });
    const block = await owner.public.getBlock({ blockNumber: receipt.blockNumber });
    const [roundId, answer, startedAt, updatedAt, answeredInRound] = (await owner.public.readContract({
      address,
      abi: feed,
      functionName: 'latestRoundData',
    })) as readonly [bigint, bigint, bigint, bigint, bigint];
    expect([roundId, answer, startedAt, updatedAt, answeredInRound]).toEqual([
      2n,
      2_500n * 10n ** 8n,
      block.timestamp,
      block.timestamp,
      2n,
    ]);
    // the previous round is still readable
    const previous = (await owner.public.readContract({
      address,
      abi: feed,
      functionName: 'getRoundData',
      args: [1n],
    })) as readonly bigint[];
    expect(previous[1]).toBe(3000n * 10n ** 8n);

    await expect(
      owner.public.simulateContract({ account: account(3), address, abi: feed, functionName: 'setAnswer', args: [1n] }),
    ).rejects.toThrow(/NotOwner/);
  });
});
