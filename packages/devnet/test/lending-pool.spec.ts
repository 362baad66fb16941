import { maxUint256, parseUnits, toEventSelector, type Address, type Hash, type TransactionReceipt } from 'viem';
import { devnetAbi } from '../src/abis';
import { account, startTestChain, type TestChain } from './helpers';

/** Aave V3's event signatures, verbatim. */
const AAVE_EVENTS = {
  Supply: 'Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  Withdraw: 'Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  Borrow:
    'Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  Repay: 'Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  LiquidationCall:
    'LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
} as const;

const pad = (address: Address) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;

describe('Aave-V3-compatible lending pool', () => {
  let chain: TestChain;
  let pool: Address;
  let weth: Address;
  let dai: Address;
  let ethFeed: Address;
  const poolAbi = devnetAbi('LendingPool');
  const tokenAbi = devnetAbi('DevToken');
  const feedAbi = devnetAbi('MockAggregatorV3');
  const LP = 5;
  const BORROWER = 6;
  const LIQUIDATOR = 7;
  const borrower = account(BORROWER).address;

  async function send(
    index: number,
    address: Address,
    abi: typeof poolAbi,
    functionName: string,
    args: readonly unknown[],
  ): Promise<TransactionReceipt> {
    const c = chain.as(index);
    const hash: Hash = await c.wallet.writeContract({ address, abi, functionName, args } as never);
    const receipt = await c.public.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return receipt;
  }
  async function fund(index: number, token: Address, amount: bigint) {
    await send(0, token, tokenAbi, 'mint', [account(index).address, amount]);
    await send(index, token, tokenAbi, 'approve', [pool, maxUint256]);
  }
  function poolLog(receipt: TransactionReceipt, event: keyof typeof AAVE_EVENTS) {
    const topic0 = toEventSelector(AAVE_EVENTS[event]);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === pool.toLowerCase() && l.topics[0] === topic0);
    if (!log) throw new Error(`no ${event} log with topic0 ${topic0}`);
    return log;
  }
  const accountData = async (who: Address) =>
    (await chain.as(0).public.readContract({ address: pool, abi: poolAbi, functionName: 'getUserAccountData', args: [who] })) as readonly [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];

  beforeAll(async () => {
    chain = await startTestChain(8453);
    pool = chain.contracts.lendingPool!.address;
    weth = chain.contracts.tokens.WETH!.address;
    dai = chain.contracts.tokens.DAI!.address;
    ethFeed = chain.contracts.priceFeeds['ETH / USD']!;
    // liquidity
    await fund(LP, dai, parseUnits('1000000', 18));
    await send(LP, pool, poolAbi, 'supply', [dai, parseUnits('1000000', 18), account(LP).address, 0]);
    await fund(BORROWER, weth, parseUnits('10', 18));
    await fund(BORROWER, dai, parseUnits('100', 18)); // approval for repay; a little for fees
    await fund(LIQUIDATOR, dai, parseUnits('100000', 18));
  }, 30_000);
  afterAll(async () => {
    await chain?.anvil.stop();
  });

  it('lists the reserves with their risk parameters', async () => {
    const list = (await chain.as(0).public.readContract({ address: pool, abi: poolAbi, functionName: 'getReservesList' })) as Address[];
    expect(list).toEqual(chain.contracts.lendingPool!.reserves.map((r) => r.asset));
    expect(chain.contracts.lendingPool!.reserves.map((r) => r.symbol)).toEqual(['WETH', 'DAI', 'USDC', 'VOLT']);
  });

  it('supply emits Aave V3 Supply and counts as collateral at the feed price', async () => {
    const receipt = await send(BORROWER, pool, poolAbi, 'supply', [weth, parseUnits('10', 18), borrower, 7]);
    const log = poolLog(receipt, 'Supply');
    expect(log.topics.slice(1)).toEqual([pad(weth), pad(borrower), `0x${'7'.padStart(64, '0')}`]);
    // 10 WETH at 3000 USD: 30,000 USD in 8 decimals; ltv 80 %, threshold 82.5 %
    expect(await accountData(borrower)).toEqual([30_000n * 10n ** 8n, 0n, 24_000n * 10n ** 8n, 8250n, 8000n, maxUint256]);
  });

  it('borrow emits Aave V3 Borrow; debt, available borrows and health factor follow the prices', async () => {
    const receipt = await send(BORROWER, pool, poolAbi, 'borrow', [dai, parseUnits('20000', 18), 2n, 0, borrower]);
    const log = poolLog(receipt, 'Borrow');
    expect(log.topics.slice(1)).toEqual([pad(dai), pad(borrower), `0x${'0'.padStart(64, '0')}`]);
    // HF = 30,000 × 0.825 / 20,000 = 1.2375
    expect(await accountData(borrower)).toEqual([
      30_000n * 10n ** 8n,
      20_000n * 10n ** 8n,
      4_000n * 10n ** 8n,
      8250n,
      8000n,
      1_237_500_000_000_000_000n,
    ]);
    // beyond the loan-to-value: refused
    await expect(
      chain.as(BORROWER).public.simulateContract({
        account: account(BORROWER),
        address: pool,
        abi: poolAbi,
        functionName: 'borrow',
        args: [dai, parseUnits('4001', 18), 2n, 0, borrower],
      }),
    ).rejects.toThrow(/CollateralCannotCoverNewBorrow/);
    // a dust borrow by an account without collateral is refused too (its value is rounded up)
    await expect(
      chain.as(LIQUIDATOR).public.simulateContract({
        account: account(LIQUIDATOR),
        address: pool,
        abi: poolAbi,
        functionName: 'borrow',
        args: [dai, 1n, 2n, 0, account(LIQUIDATOR).address],
      }),
    ).rejects.toThrow(/CollateralCannotCoverNewBorrow/);
  });

  it('repay emits Aave V3 Repay and lowers the debt', async () => {
    const receipt = await send(BORROWER, pool, poolAbi, 'repay', [dai, parseUnits('5000', 18), 2n, borrower]);
    const log = poolLog(receipt, 'Repay');
    expect(log.topics.slice(1)).toEqual([pad(dai), pad(borrower), pad(borrower)]);
    const [, debt, , , , hf] = await accountData(borrower);
    expect(debt).toBe(15_000n * 10n ** 8n);
    expect(hf).toBe(1_650_000_000_000_000_000n); // 24,750 / 15,000
  });

  it('withdraw emits Aave V3 Withdraw and may not take the health factor below 1', async () => {
    const receipt = await send(BORROWER, pool, poolAbi, 'withdraw', [weth, parseUnits('1', 18), borrower]);
    expect(poolLog(receipt, 'Withdraw').topics.slice(1)).toEqual([pad(weth), pad(borrower), pad(borrower)]);
    await expect(
      chain.as(BORROWER).public.simulateContract({
        account: account(BORROWER),
        address: pool,
        abi: poolAbi,
        functionName: 'withdraw',
        args: [weth, parseUnits('5', 18), borrower],
      }),
    ).rejects.toThrow(/HealthFactorLowerThanLiquidationThreshold/);
  });

  it('after a price shock, liquidationCall emits Aave V3 LiquidationCall and seizes collateral with the bonus', async () => {
    const liquidator = account(LIQUIDATOR).address;
    await expect(
      chain.as(LIQUIDATOR).public.simulateContract({
        account: account(LIQUIDATOR),
        address: pool,
        abi: poolAbi,
        functionName: 'liquidationCall',
        args: [weth, dai, borrower, 1n, false],
      }),
    ).rejects.toThrow(/HealthFactorNotBelowThreshold/);

    await send(0, ethFeed, feedAbi, 'setAnswer', [1_800n * 10n ** 8n]);
    // 9 WETH at 1,800 = 16,200 USD; HF = 16,200 × 0.825 / 15,000 = 0.891
    const [collateral, debt, available, , , hf] = await accountData(borrower);
    expect([collateral, debt, available, hf]).toEqual([16_200n * 10n ** 8n, 15_000n * 10n ** 8n, 0n, 891_000_000_000_000_000n]);

    const receipt = await send(LIQUIDATOR, pool, poolAbi, 'liquidationCall', [weth, dai, borrower, parseUnits('3600', 18), false]);
    const log = poolLog(receipt, 'LiquidationCall');
    expect(log.topics.slice(1)).toEqual([pad(weth), pad(dai), pad(borrower)]);
    // 3,600 DAI at 1 USD buy 2 WETH at 1,800 USD, plus the 5 % bonus: 2.1 WETH
    const wethBalance = await chain
      .as(0)
      .public.readContract({ address: weth, abi: tokenAbi, functionName: 'balanceOf', args: [liquidator] });
    expect(wethBalance).toBe(parseUnits('2.1', 18));
    const [collateralAfter, debtAfter] = await accountData(borrower);
    expect(collateralAfter).toBe(12_420n * 10n ** 8n); // 6.9 WETH × 1,800
    expect(debtAfter).toBe(11_400n * 10n ** 8n);
  });

  it('chargeInterest: owner only, grows the debt (and the reserve total), lowers the health factor, reverts without debt', async () => {
    const interest = parseUnits('600', 18);
    const call = (index: number, user: Address, amount: bigint) =>
      chain.as(index).public.simulateContract({
        account: account(index),
        address: pool,
        abi: poolAbi,
        functionName: 'chargeInterest',
        args: [user, dai, amount],
      });
    await expect(call(BORROWER, borrower, interest)).rejects.toThrow(/NotOwner/);
    await expect(call(LIQUIDATOR, borrower, interest)).rejects.toThrow(/NotOwner/);
    // the liquidator has no DAI debt
    await expect(call(0, account(LIQUIDATOR).address, interest)).rejects.toThrow(/NoDebtOfSelectedType/);
    await expect(call(0, borrower, 0n)).rejects.toThrow(/InvalidAmount/);

    const reserveBefore = (await chain
      .as(0)
      .public.readContract({ address: pool, abi: poolAbi, functionName: 'reserves', args: [dai] })) as readonly unknown[];
    const debtBefore = (await chain
      .as(0)
      .public.readContract({ address: pool, abi: poolAbi, functionName: 'borrowed', args: [borrower, dai] })) as bigint;
    const [, debtBaseBefore, , , , hfBefore] = await accountData(borrower);
    const receipt = await send(0, pool, poolAbi, 'chargeInterest', [borrower, dai, interest]);
    const topic0 = toEventSelector('InterestCharged(address indexed reserve, address indexed user, uint256 amount)');
    const log = receipt.logs.find((l) => l.address.toLowerCase() === pool.toLowerCase() && l.topics[0] === topic0)!;
    expect(log.topics.slice(1)).toEqual([pad(dai), pad(borrower)]);
    expect(BigInt(log.data)).toBe(interest);
    // no Aave event for it
    const aaveTopics = Object.values(AAVE_EVENTS).map((e) => toEventSelector(e));
    expect(receipt.logs.some((l) => aaveTopics.includes(l.topics[0]!))).toBe(false);

    const debtAfter = (await chain
      .as(0)
      .public.readContract({ address: pool, abi: poolAbi, functionName: 'borrowed', args: [borrower, dai] })) as bigint;
    expect(debtAfter).toBe(debtBefore + interest);
    const reserveAfter = (await chain
      .as(0)
      .public.readContract({ address: pool, abi: poolAbi, functionName: 'reserves', args: [dai] })) as readonly unknown[];
    expect(reserveAfter[8]).toBe((reserveBefore[8] as bigint) + interest); // totalBorrowed
    const [, debtBaseAfter, , , , hfAfter] = await accountData(borrower);
    expect(debtBaseAfter).toBe(debtBaseBefore + 600n * 10n ** 8n);
    expect(hfAfter < hfBefore).toBe(true);
  });

  it('emits exactly the Aave V3 topic0 values', () => {
    const events = poolAbi.filter((item) => item.type === 'event');
    for (const [name, signature] of Object.entries(AAVE_EVENTS)) {
      const item = events.find((e) => e.name === name)!;
      expect(toEventSelector(item)).toBe(toEventSelector(signature));
    }
  });
});
