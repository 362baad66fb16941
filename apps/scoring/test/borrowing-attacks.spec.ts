import { decimal } from '@credit/chain/decimal';
import type { AssetPrice } from '@credit/chain/price-reader';
import type { LendingEventRecord } from '@credit/db/chain-activity-types';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { lendingRecordOf } from '@credit/wallet/lending-record';
import { borrowingFeaturesOf } from '../src/features/wallet-features';
import { featuresOf } from './support/wallet-features-fixture';

/**
 * The borrowing record against the cheap ways to buy one (issue 17): the events go through the
 * record's accounting (`lendingRecordOf`) and the feature mapping (`borrowingFeaturesOf`) into the
 * model, and the score gained is bounded per dollar the attack moved.
 */
const DAY = 86_400;
const T0 = 1_760_000_000;
const DAI = '0x00000000000000000000000000000000000000da' as const;
const WALLET = '0x1111111111111111111111111111111111111111' as const;
const daiPrice = {
  asset: { kind: 'token', symbol: 'DAI', name: 'Dai', decimals: 18, token: DAI, priceFeed: DAI, priceMaxAgeSeconds: 3600 },
  round: { feed: DAI, decimals: 8, roundId: 1n, answer: 100_000_000n, answeredInRound: 1n, updatedAt: 1n },
  status: 'ok',
  ageSeconds: 0n,
  usdPerUnit: decimal(1n, 0),
} as AssetPrice;

const dai = (dollars: number): bigint => BigInt(Math.round(dollars * 100)) * 10n ** 16n;
let block = 1n;
const OTHER = '0x2222222222222222222222222222222222222222' as const;
const event = (
  kind: LendingEventRecord['kind'],
  dollars: number,
  timestamp: number,
  actor: `0x${string}` = WALLET,
): LendingEventRecord => ({
  chainId: 1,
  address: WALLET,
  kind,
  asset: DAI,
  amount: dai(dollars),
  actor,
  blockNumber: block++,
  txIndex: 0,
  logIndex: 0,
  timestamp,
});

/** A holder with a long history and no borrowing (the audit's 772-point holder kind). */
const HOLDER = featuresOf({
  walletAgeDays: 900,
  daysSinceLastActivity: 4,
  txCount: 40,
  transferCount: 25,
  activeChains: 1,
  totalAssetUsd: 8_000,
  stablecoinUsd: 3_000,
  assetCount: 3,
});

/** The holder after the events, with the counts they add (each borrow and repay a transaction it sent). */
function after(base: WalletFeatures, events: LendingEventRecord[], extra: Partial<WalletFeatures> = {}): WalletFeatures {
  const borrows = events.filter((e) => e.kind === 'borrow').length;
  const repays = events.filter((e) => e.kind === 'repay').length;
  return {
    ...base,
    ...borrowingFeaturesOf([lendingRecordOf(events, [daiPrice])]),
    txCount: base.txCount + borrows + repays,
    transferCount: base.transferCount + borrows + repays,
    borrowCount: base.borrowCount + borrows,
    repayCount: base.repayCount + repays,
    ...extra,
  };
}

const score = (f: WalletFeatures): number => scoreWallet(f).score;

/**
 * The same wallet with the same transactions sent, none of them lending: what the attack's
 * transactions alone are worth (Interactions counts activity of any kind; the record must add nothing).
 */
const plain = (f: WalletFeatures): WalletFeatures => ({
  ...f,
  borrowCount: 0,
  repayCount: 0,
  borrowedUsd: 0,
  repaidUsd: 0,
  repaidUsdDays: 0,
  loansRepaid: 0,
});

describe('the borrowing record cannot be bought cheaply', () => {
  it('twelve $1 borrow-and-repay loops earn nothing beyond what 24 plain transactions earn', () => {
    const events = Array.from({ length: 12 }, (_, k) => [event('borrow', 1, T0 + k * 60), event('repay', 1, T0 + k * 60 + 12)]).flat();
    const looped = after(HOLDER, events, { supplyCount: 1, collateralUsd: 10 });
    expect(looped.loansRepaid).toBe(0);
    expect(looped.repaidUsdDays).toBeLessThan(0.01);
    // the record's points are those of never borrowing
    expect(scoreWallet(looped).factors[0]!.scorePoints).toBe(scoreWallet(plain(looped)).factors[0]!.scorePoints);
    expect(score(looped)).toBeLessThanOrEqual(score(plain(looped)));
  });

  it('a thousand micro-loops of $10 earn no record: the factor stays where never borrowing puts it', () => {
    const loops = Array.from({ length: 1000 }, (_, k) => [event('borrow', 10, T0 + k * 24), event('repay', 10, T0 + k * 24 + 12)]).flat();
    const looped = after(HOLDER, loops);
    expect(looped.loansRepaid).toBe(0);
    expect(scoreWallet(looped).factors[0]!.scorePoints).toBe(scoreWallet(plain(looped)).factors[0]!.scorePoints);
    expect(score(looped)).toBeLessThanOrEqual(score(plain(looped)));
  });

  it('six $10,001 loans held a day each (about $8 of interest) lift the score by less than a point', () => {
    const events = Array.from({ length: 6 }, (_, k) => [
      event('borrow', 10_001, T0 + k * 2 * DAY),
      event('repay', 10_001, T0 + k * 2 * DAY + DAY),
    ]).flat();
    const farmed = after(HOLDER, events, { supplyCount: 1 });
    expect(farmed.loansRepaid).toBe(6);
    expect(score(farmed) - score(plain(farmed))).toBeLessThanOrEqual(1);
  });

  it('repayments made by another wallet build no record for the borrower', () => {
    const events = [event('borrow', 50_000, T0), event('repay', 50_000, T0 + 200 * DAY, OTHER)];
    const record = lendingRecordOf(events, [daiPrice]);
    expect(record).toMatchObject({ repaidCents: '0', repaidUsdDays: 0, loansRepaidUsdDays: [], ownRepays: 0 });
    const own = lendingRecordOf([event('borrow', 50_000, T0), event('repay', 50_000, T0 + 200 * DAY)], [daiPrice]);
    expect(own.repaidUsdDays).toBeCloseTo(10_000_000, 6);
    expect(own.ownRepays).toBe(1);
  });

  it('a 90-day sybil loan earns at most 0.03 score points per dollar borrowed, and a $100 one nothing', () => {
    const fresh: WalletFeatures = { ...HOLDER, walletAgeDays: 91, txCount: 3, transferCount: 3, daysSinceLastActivity: 0 };
    for (const dollars of [100, 1_000, 10_000, 100_000]) {
      const borrower = after(fresh, [event('borrow', dollars, T0), event('repay', dollars, T0 + 90 * DAY)]);
      const gained = score(borrower) - score(plain(borrower));
      expect(gained).toBeGreaterThanOrEqual(0);
      expect(gained / dollars).toBeLessThanOrEqual(0.03);
      if (dollars === 100) expect(gained).toBe(0);
    }
  });

  it('a small open loan at a very high health factor scores no higher than having no debt', () => {
    const loan = after(HOLDER, [event('borrow', 10, T0)], {
      debtUsd: 10,
      healthFactor: 80,
      collateralUsd: 1_000,
      supplyCount: 1,
      totalAssetUsd: HOLDER.totalAssetUsd + 10,
      stablecoinUsd: HOLDER.stablecoinUsd + 10,
    });
    const noDebt = { ...loan, debtUsd: 0, healthFactor: null, totalAssetUsd: HOLDER.totalAssetUsd, stablecoinUsd: HOLDER.stablecoinUsd };
    expect(score(loan)).toBeLessThanOrEqual(score(noDebt));
  });

  it('three borrows repaid in one transaction are one loan repaid in full, not a third of three', () => {
    const t = T0 + 40 * DAY;
    const events = [
      event('borrow', 3_000, T0),
      event('borrow', 3_000, T0 + DAY),
      event('borrow', 3_000, T0 + 2 * DAY),
      event('repay', 9_000, t),
    ];
    const record = lendingRecordOf(events, [daiPrice]);
    expect(record.repaidCents).toBe(record.borrowedCents);
    expect(record.loansRepaidUsdDays).toHaveLength(1);
    expect(record.repaidUsdDays).toBeCloseTo(3_000 * 40 + 3_000 * 39 + 3_000 * 38, 6);
  });

  it('debt a liquidator covered is no repayment, and interest repaid is not principal', () => {
    const liquidated = lendingRecordOf([event('borrow', 1_000, T0), event('liquidation', 1_000, T0 + 10 * DAY)], [daiPrice]);
    expect(liquidated.repaidCents).toBe('0');
    expect(liquidated.loansRepaidUsdDays).toEqual([]);
    const withInterest = lendingRecordOf([event('borrow', 1_000, T0), event('repay', 1_050, T0 + 100 * DAY)], [daiPrice]);
    expect(withInterest.repaidCents).toBe('100000');
    expect(withInterest.repaidUsdDays).toBeCloseTo(100_000, 6);
  });

  it('events of an asset without a fresh price are left out and counted', () => {
    const record = lendingRecordOf([event('borrow', 1_000, T0)], [{ ...daiPrice, status: 'stale' }]);
    expect(record).toMatchObject({ borrowedCents: '0', unvaluedEvents: 1 });
  });
});
