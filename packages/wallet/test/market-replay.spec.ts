import { getAddress, maxUint256 } from 'viem';
import type { PlannedCall } from '@credit/chain/multicall';
import { accountDataAt, marketAt, replayCalls, type MarketHistory } from '../src/history/market-replay';

const POOL = getAddress('0x00000000000000000000000000000000000000b1');
const WETH = getAddress('0x00000000000000000000000000000000000000e1');
const DAI = getAddress('0x00000000000000000000000000000000000000d1');
const ETH_FEED = getAddress('0x00000000000000000000000000000000000000f1');
const DAI_FEED = getAddress('0x00000000000000000000000000000000000000f2');
const WHO = getAddress('0x00000000000000000000000000000000000000a1');
const lower = (a: string) => a.toLowerCase() as `0x${string}`;

const answer = (feed: string, block: bigint, value: bigint, logIndex = 0) => ({
  feed: lower(feed),
  blockNumber: block,
  logIndex,
  roundId: block,
  answer: value,
  updatedAt: Number(block) * 12,
});
const move = (asset: string, block: bigint, supplied: bigint, borrowed: bigint) => ({
  pool: lower(POOL),
  account: lower(WHO),
  asset: lower(asset),
  blockNumber: block,
  supplied,
  borrowed,
});

/** 10 WETH supplied at block 1, 10,000 DAI borrowed at block 2, ETH at 2,000 then 1,200 (block 5), DAI at 1. */
const HISTORY: MarketHistory = {
  flows: [
    { address: lower(WHO), asset: 'native', amount: 5n, blockNumber: 3n },
    { address: lower(WHO), asset: lower(DAI), amount: 10_000n * 10n ** 18n, blockNumber: 2n },
    { address: lower(WHO), asset: 'collateral:' + lower(WETH), amount: 10n * 10n ** 18n, blockNumber: 1n },
  ],
  answers: [answer(ETH_FEED, 1n, 2_000n * 10n ** 8n), answer(DAI_FEED, 1n, 10n ** 8n), answer(ETH_FEED, 5n, 1_200n * 10n ** 8n)],
  moves: [move(WETH, 1n, 10n * 10n ** 18n, 0n), move(DAI, 2n, 0n, 10_000n * 10n ** 18n)],
  reserves: new Map([
    [
      lower(POOL),
      [
        { asset: WETH, decimals: 18, priceFeed: ETH_FEED, ltv: 8000n, liquidationThreshold: 8250n },
        { asset: DAI, decimals: 18, priceFeed: DAI_FEED, ltv: 7500n, liquidationThreshold: 8000n },
      ],
    ],
  ]),
};

describe('a past block replayed from the index', () => {
  it('values a position as the pool does: collateral, debt, what may still be borrowed, the weighted threshold, the health factor', () => {
    const result = accountDataAt(marketAt(HISTORY, 4n), POOL, WHO);
    // 10 WETH × 2,000 = 20,000 USD; 10,000 DAI debt; ltv 80 %: 16,000 − 10,000 = 6,000 borrowable; HF 20,000 × 0.825 / 10,000
    expect(result).toEqual({
      ok: true,
      value: [2_000_000_000_000n, 1_000_000_000_000n, 600_000_000_000n, 8250n, 8000n, 1_650_000_000_000_000_000n],
    });
  });

  it('moves with the feed: after the fall at block 5 the same position is liquidatable', () => {
    const result = accountDataAt(marketAt(HISTORY, 5n), POOL, WHO);
    expect(result.ok && (result.value as bigint[])[5]).toBe(990_000_000_000_000_000n);
  });

  it('before any debt the health factor is the pool’s max uint256, before anything supplied all zero', () => {
    expect(accountDataAt(marketAt(HISTORY, 1n), POOL, WHO)).toMatchObject({
      ok: true,
      value: [2_000_000_000_000n, 0n, 1_600_000_000_000n, 8250n, 8000n, maxUint256],
    });
    expect(accountDataAt(marketAt(HISTORY, 0n), POOL, WHO)).toEqual({ ok: true, value: [0n, 0n, 0n, 0n, 0n, maxUint256] });
  });

  it('fails where the chain would: a price of 0 (the pool reverts), a feed with no answer yet, reserves unread', () => {
    const zero = { ...HISTORY, answers: [...HISTORY.answers, answer(DAI_FEED, 3n, 0n)] };
    expect(accountDataAt(marketAt(zero, 3n), POOL, WHO)).toEqual({ ok: false, error: 'InvalidPrice()' });
    const unanswered = { ...HISTORY, answers: HISTORY.answers.filter((a) => a.feed !== lower(DAI_FEED)) };
    expect(accountDataAt(marketAt(unanswered, 4n), POOL, WHO).ok).toBe(false);
    const unread = { ...HISTORY, reserves: new Map([[lower(POOL), undefined]]) };
    expect(accountDataAt(marketAt(unread, 4n), POOL, WHO).ok).toBe(false);
  });

  it("answers a snapshot's calls: balances moved back by what arrived after the block, a feed's latest round, a decimals call as at the checkpoint", () => {
    const calls: PlannedCall[] = [
      { address: POOL, abi: [], functionName: 'getEthBalance', args: [WHO] },
      { address: DAI, abi: [], functionName: 'balanceOf', args: [WHO] },
      { address: ETH_FEED, abi: [], functionName: 'latestRoundData' },
      { address: ETH_FEED, abi: [], functionName: 'decimals' },
      { address: POOL, abi: [], functionName: 'somethingElse' },
    ];
    const atCheckpoint = [
      { ok: true as const, value: 7n },
      { ok: true as const, value: 10_000n * 10n ** 18n },
      { ok: true as const, value: 'unused' },
      { ok: true as const, value: 8 },
      { ok: true as const, value: 1n },
    ];
    const replayed = replayCalls(calls, atCheckpoint, marketAt(HISTORY, 1n));
    expect(replayed.slice(0, 4)).toEqual([
      { ok: true, value: 2n },
      { ok: true, value: 0n },
      { ok: true, value: [1n, 2_000n * 10n ** 8n, 12n, 12n, 1n] },
      { ok: true, value: 8 },
    ]);
    expect(replayed[4]!.ok).toBe(false);
  });
});
