import type { Address } from 'viem';
import type { AddressActivityRecord, EventStats } from '@credit/db/chain-activity-repository';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { calibrate, populationOutcomes, withoutLiquidationsFrom } from '../src/calibration/population';

const A = '0x1111111111111111111111111111111111111111';
const SHOCK = 1_777_000_000;
const stats = (count: number, first: number | null, last: number | null): EventStats => ({
  count,
  first: first === null ? null : new Date(first * 1000),
  last: last === null ? null : new Date(last * 1000),
});
const row = (liquidation: EventStats): AddressActivityRecord =>
  ({
    chainId: 1,
    address: A,
    firstTransaction: { hash: '0x1', blockNumber: 1n, txIndex: 0, timestamp: new Date(0) },
    lastTransaction: { hash: '0x2', blockNumber: 2n, txIndex: 0, timestamp: new Date(SHOCK * 1000) },
    transactionCount: 3,
    transferCount: 1,
    supply: stats(1, 1, 1),
    withdraw: stats(0, null, null),
    borrow: stats(1, 2, 2),
    repay: stats(0, null, null),
    liquidation,
  }) as AddressActivityRecord;

describe('populationOutcomes', () => {
  it('reads the recorded outcome of each entry, checksumming the address', () => {
    const entries = [
      {
        address: A,
        chainId: 31337,
        kind: 'borrower',
        transfers: 2,
        outcome: { shockAt: SHOCK, healthFactorAfterShock: '900000000000000000', liquidated: true },
      },
      {
        address: A.replace('1', '2'),
        chainId: 31338,
        kind: 'holder',
        outcome: { shockAt: SHOCK, healthFactorAfterShock: null, liquidated: false },
      },
    ];
    expect(populationOutcomes(entries)).toEqual([
      { address: '0x1111111111111111111111111111111111111111', chainId: 31337, kind: 'borrower', shockAt: SHOCK, liquidated: true },
      { address: '0x2111111111111111111111111111111111111111', chainId: 31338, kind: 'holder', shockAt: SHOCK, liquidated: false },
    ]);
  });

  it('throws on an entry without an outcome', () => {
    expect(() => populationOutcomes([{ address: A, chainId: 1, kind: 'holder' }])).toThrow(/entry 0/);
  });
});

describe('withoutLiquidationsFrom', () => {
  it('drops liquidations at or after the cut, keeps earlier ones and rows without any', () => {
    const after = row(stats(1, SHOCK + 3600, SHOCK + 3600));
    const before = row(stats(2, SHOCK - 100, SHOCK - 10));
    const none = row(stats(0, null, null));
    const [a, b, c] = withoutLiquidationsFrom([after, before, none], SHOCK);
    expect(a!.liquidation).toEqual({ count: 0, first: null, last: null });
    expect(a!.borrow).toBe(after.borrow);
    expect(b).toBe(before);
    expect(c).toBe(none);
  });

  it('refuses a row with liquidations on both sides of the cut', () => {
    expect(() => withoutLiquidationsFrom([row(stats(2, SHOCK - 10, SHOCK + 10))], SHOCK)).toThrow(/both sides/);
  });
});

const base: WalletFeatures = {
  walletAgeDays: 500,
  daysSinceLastActivity: 5,
  txCount: 40,
  transferCount: 10,
  activeChains: 1,
  totalAssetUsd: 5000,
  stablecoinUsd: 1000,
  assetCount: 3,
  collateralUsd: 10000,
  debtUsd: 3000,
  healthFactor: 2.5,
  supplyCount: 2,
  borrowCount: 4,
  repayCount: 4,
  borrowedUsd: 20_000,
  repaidUsd: 17_000,
  repaidUsdDays: 500_000,
  loansRepaid: 4,
  liquidationCount: 0,
  daysSinceLastLiquidation: null,
  identityAttestations: 0,
  activeMonths: 0,
  counterparties: 0,
  passportScore: null,
  ensHeldDays: null,
  poapsAged: 0,
};

describe('calibrate', () => {
  it('scores every member with scoreWallet and reports cut-points and the AUC', () => {
    const members = Array.from({ length: 20 }, (_, i) => {
      const liquidated = i % 4 === 0;
      const features: WalletFeatures = liquidated
        ? { ...base, healthFactor: 1.05, liquidationCount: 1, daysSinceLastLiquidation: 20 }
        : { ...base, walletAgeDays: 200 + 40 * i };
      return { address: `0x${String(i).padStart(40, '0')}` as Address, features, liquidated };
    });
    const result = calibrate(members);
    expect(result.population).toBe(20);
    expect(result.liquidated).toBe(5);
    expect(result.scores.map((s) => s.score)).toEqual(members.map((m) => scoreWallet(m.features).score));
    expect(result.cutPoints).toHaveLength(9);
    expect(result.auc).toBe(1);
    expect(result.meanScoreLiquidated!).toBeLessThan(result.meanScoreOthers!);
  });

  it('gives no AUC when nobody (or everybody) was liquidated', () => {
    const members = Array.from({ length: 10 }, (_, i) => ({
      address: `0x${String(i).padStart(40, '0')}` as Address,
      features: base,
      liquidated: false,
    }));
    expect(calibrate(members).auc).toBeNull();
  });
});

describe('calibrate: factor AUCs', () => {
  it('reports each factor alone, 0.5 for a factor that does not separate', () => {
    const members = Array.from({ length: 10 }, (_, i) => ({
      address: `0x${String(i).padStart(40, '0')}` as Address,
      features: i < 3 ? { ...base, healthFactor: 1.02 } : base,
      liquidated: i < 3,
    }));
    const { factorAuc } = calibrate(members);
    expect(factorAuc['Wallet Health']).toBe(1);
    expect(factorAuc.Trust).toBe(0.5);
    expect(Object.keys(factorAuc)).toHaveLength(6);
  });
});
