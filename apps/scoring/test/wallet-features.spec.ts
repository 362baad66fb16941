import type { Address } from 'viem';
import { decimal, usdAmount, type Decimal } from '@credit/chain/decimal';
import type { AssetValue } from '@credit/chain/portfolio-reader';
import type { LendingPosition } from '@credit/chain/lending-reader';
import type { PriceStatus } from '@credit/chain/price-reader';
import type { WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord, EventStats } from '@credit/db/chain-activity-repository';
import { validateFeatures } from '@credit/score-model/andromeda/features';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { walletFeaturesWithNotes } from '../src/features/wallet-features';

const DAY = 86_400;
const AS_OF = 1_780_000_000;
const WALLET = '0x1111111111111111111111111111111111111111' as Address;
const OTHER = '0x2222222222222222222222222222222222222222' as Address;
const at = (daysAgo: number) => new Date((AS_OF - daysAgo * DAY) * 1000);
const stats = (count: number, lastDaysAgo: number | null = null): EventStats => ({
  count,
  first: lastDaysAgo === null ? null : at(lastDaysAgo + 1),
  last: lastDaysAgo === null ? null : at(lastDaysAgo),
});

function activity(
  chainId: number,
  fields: Partial<AddressActivityRecord> & { firstDaysAgo: number; lastDaysAgo: number },
  address: Address = WALLET,
): AddressActivityRecord {
  const { firstDaysAgo, lastDaysAgo, ...rest } = fields;
  return {
    chainId,
    address: address.toLowerCase() as AddressActivityRecord['address'],
    firstTransaction: { hash: '0xaa', blockNumber: 1n, txIndex: 0, timestamp: at(firstDaysAgo) },
    lastTransaction: { hash: '0xbb', blockNumber: 2n, txIndex: 0, timestamp: at(lastDaysAgo) },
    transactionCount: 0,
    transferCount: 0,
    supply: stats(0),
    withdraw: stats(0),
    borrow: stats(0),
    repay: stats(0),
    liquidation: stats(0),
    ...rest,
  } as AddressActivityRecord;
}

const usd = (dollars: string): ReturnType<typeof usdAmount> => {
  const [whole, frac = ''] = dollars.split('.');
  return usdAmount(decimal(BigInt(`${whole}${frac.padEnd(2, '0')}`), 2));
};

function asset(symbol: string, amount: bigint, dollars: string | null, status: PriceStatus = 'ok'): AssetValue {
  return {
    asset: {
      kind: symbol === 'ETH' ? 'native' : 'token',
      symbol,
      name: symbol,
      decimals: 0,
      token: null,
      priceFeed: OTHER,
      priceMaxAgeSeconds: 3600,
    },
    amount,
    units: decimal(amount, 0),
    price: {
      asset: undefined as never,
      round: { feed: OTHER, decimals: 8, roundId: 1n, answer: 1n, answeredInRound: 1n, updatedAt: 1n },
      status,
      ageSeconds: 0n,
      usdPerUnit: status === 'ok' || status === 'stale' ? decimal(1n, 0) : null,
    },
    value: dollars === null ? null : usd(dollars),
  } as AssetValue;
}

function position(collateral: string, debt: string, healthFactor: Decimal | null): LendingPosition {
  const hasDebt = debt !== '0';
  return {
    pool: { name: 'pool' } as LendingPosition['pool'],
    data: {
      totalCollateralBase: 1n,
      totalDebtBase: hasDebt ? 1n : 0n,
      availableBorrowsBase: 0n,
      currentLiquidationThreshold: 0n,
      ltv: 0n,
      healthFactor: 0n,
    },
    collateral: usd(collateral),
    debt: usd(debt),
    availableBorrows: usd('0'),
    healthFactor,
    hasDebt,
    active: true,
  };
}

const unreadPosition: LendingPosition = {
  pool: { name: 'pool' } as LendingPosition['pool'],
  data: null,
  collateral: null,
  debt: null,
  availableBorrows: null,
  healthFactor: null,
  hasDebt: false,
  active: false,
  error: 'reverted',
};

function snapshot(
  chainId: number,
  assets: AssetValue[],
  positions: LendingPosition[],
  extra: { address: Address; assets: AssetValue[] }[] = [],
): WalletSnapshot {
  const block = { number: 100n, timestamp: BigInt(AS_OF) };
  const complete = (list: AssetValue[]) => list.every((a) => a.value !== null);
  return {
    chainId,
    block,
    portfolio: {
      chainId,
      chainName: `chain-${chainId}`,
      block,
      prices: [],
      addresses: [
        ...extra.map((e) => ({ address: e.address, assets: e.assets, total: usd('0'), complete: complete(e.assets) })),
        { address: WALLET, assets, total: usd('0'), complete: complete(assets) },
      ],
    },
    lending: { chainId, block, addresses: [{ address: WALLET, positions }] },
  };
}

const hf = (text: string): Decimal => {
  const [whole, frac = ''] = text.split('.');
  return decimal(BigInt(`${whole}${frac.padEnd(18, '0')}`), 18);
};

describe('walletFeatures', () => {
  it('maps a two-chain borrower field by field', () => {
    const rows = [
      activity(1, {
        firstDaysAgo: 400,
        lastDaysAgo: 10,
        transactionCount: 30,
        transferCount: 12,
        supply: stats(2, 100),
        borrow: stats(3, 50),
        repay: stats(2, 20),
        liquidation: stats(1, 200),
      }),
      activity(2, {
        firstDaysAgo: 120,
        lastDaysAgo: 3,
        transactionCount: 5,
        transferCount: 4,
        supply: stats(1, 60),
        borrow: stats(1, 60),
        liquidation: stats(1, 90),
      }),
      activity(2, { firstDaysAgo: 9999, lastDaysAgo: 0, transactionCount: 1000 }, OTHER), // another wallet: ignored
    ];
    const snapshots = [
      snapshot(
        1,
        [asset('ETH', 2n, '6000.50'), asset('USDC', 100n, '100.00'), asset('DAI', 0n, '0')],
        [position('5000', '2000', hf('1.8'))],
      ),
      snapshot(
        2,
        [asset('ETH', 1n, '3000'), asset('usdt', 25n, '25.25'), asset('VOLT', 10n, '40')],
        [position('1000', '500', hf('1.35')), position('0', '0', null)],
        [{ address: OTHER, assets: [asset('ETH', 100n, '300000')] }],
      ),
    ];

    const month = (daysAgo: number) => {
      const d = at(daysAgo);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    };
    const dealings = (chainId: number, sent: number, transfers: number, counterparties: number, daysAgo: number[]) => ({
      chainId,
      address: WALLET.toLowerCase() as `0x${string}`,
      sentToOthers: sent,
      transfersWithOthers: transfers,
      counterparties,
      activeMonths: [...new Set(daysAgo.map(month))].sort((a, b) => a - b),
      lastAt: AS_OF - Math.min(...daysAgo) * DAY,
    });
    const features = walletFeaturesWithNotes({
      address: WALLET,
      activity: rows,
      snapshots,
      asOfSeconds: AS_OF,
      // the same month on both chains counts once; a dealing 500 days ago is outside the last 12 months
      interactions: [dealings(1, 28, 10, 6, [10, 500]), dealings(2, 5, 4, 2, [3, 10])],
      attestations: {
        attestations: ['passport', 'poap:Old', 'poap:New', 'farcaster:w'],
        passportScore: 31,
        poapDates: ['2020-01-01', '2026-05-01'],
      },
      names: [
        { name: 'old.eth', since: AS_OF - 200 * DAY },
        { name: 'new.eth', since: AS_OF - 2 * DAY },
        { name: 'later.eth', since: AS_OF + DAY },
      ],
    }).features;
    expect(features).toEqual({
      walletAgeDays: 400,
      daysSinceLastActivity: 3,
      txCount: 33,
      transferCount: 14,
      activeChains: 2,
      activeMonths: month(3) === month(10) ? 1 : 2,
      counterparties: 8,
      totalAssetUsd: 9165.75,
      stablecoinUsd: 125.25,
      assetCount: 4, // ETH (two chains, one asset), USDC, USDT, VOLT; DAI is a zero balance
      collateralUsd: 6000,
      debtUsd: 2500,
      healthFactor: 1.35,
      supplyCount: 3,
      borrowCount: 4,
      repayCount: 0, // the repayments it made itself: no lending events given
      // no lending events given: an empty borrowing record (borrowing-attacks.spec covers the record)
      borrowedUsd: 0,
      repaidUsd: 0,
      repaidUsdDays: 0,
      loansRepaid: 0,
      liquidationCount: 2,
      daysSinceLastLiquidation: 90,
      identityAttestations: 4,
      passportScore: 31,
      ensHeldDays: 200,
      poapsAged: 1,
    });
    expect(validateFeatures(features)).toBe(features);
    expect(() => scoreWallet(features)).not.toThrow();
  });

  it('gives an address with no activity and no holdings zero ages, no health factor and no liquidation', () => {
    const features = walletFeaturesWithNotes({
      address: WALLET,
      activity: [],
      snapshots: [snapshot(1, [asset('ETH', 0n, '0')], [position('0', '0', null)])],
      asOfSeconds: AS_OF,
    }).features;
    expect(features).toMatchObject({
      walletAgeDays: 0,
      daysSinceLastActivity: 0,
      activeChains: 0,
      totalAssetUsd: 0,
      assetCount: 0,
      healthFactor: null,
      liquidationCount: 0,
      daysSinceLastLiquidation: null,
    });
    expect(validateFeatures(features)).toBe(features);
  });

  it('leaves out assets without a fresh price and says which portfolios were incomplete', () => {
    const result = walletFeaturesWithNotes({
      address: WALLET.toUpperCase().replace('0X', '0x'),
      activity: [activity(1, { firstDaysAgo: 30, lastDaysAgo: 1 })],
      snapshots: [
        snapshot(1, [asset('ETH', 1n, null, 'stale'), asset('USDC', 50n, '50'), asset('DAI', 0n, '0', 'unavailable')], [unreadPosition]),
        snapshot(2, [asset('ETH', 1n, '10')], [position('0', '0', null)]),
      ],
      asOfSeconds: AS_OF,
    });
    expect(result.features).toMatchObject({
      totalAssetUsd: 60,
      stablecoinUsd: 50,
      assetCount: 2,
      collateralUsd: 0,
      debtUsd: 0,
      healthFactor: null,
    });
    expect(result.notes).toEqual({
      incompletePortfolioChains: [1],
      unreadLendingChains: [1],
      missingSnapshotChains: [],
      unvaluedLendingChains: [],
    });
  });

  it('notes a snapshot that does not hold the wallet and never measures negative ages', () => {
    const result = walletFeaturesWithNotes({
      address: WALLET,
      activity: [activity(1, { firstDaysAgo: -1, lastDaysAgo: -1 })], // recorded after asOf
      snapshots: [
        {
          ...snapshot(5, [], []),
          portfolio: { ...snapshot(5, [], []).portfolio, addresses: [] },
          lending: { chainId: 5, block: { number: 1n, timestamp: 1n }, addresses: [] },
        },
      ],
      asOfSeconds: AS_OF,
    });
    expect(result.features.walletAgeDays).toBe(0);
    expect(result.features.daysSinceLastActivity).toBe(0);
    expect(result.notes.missingSnapshotChains).toEqual([5]);
  });

  it('measures fractional days', () => {
    const features = walletFeaturesWithNotes({
      address: WALLET,
      activity: [activity(1, { firstDaysAgo: 1.5, lastDaysAgo: 0.25 })],
      snapshots: [snapshot(1, [], [])],
      asOfSeconds: AS_OF,
    }).features;
    expect(features.walletAgeDays).toBeCloseTo(1.5, 9);
    expect(features.daysSinceLastActivity).toBeCloseTo(0.25, 9);
  });
});
