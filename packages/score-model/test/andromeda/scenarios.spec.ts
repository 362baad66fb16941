import { validateFeatures, type WalletFeatures } from '../../src/andromeda/features';
import { EMPTY, HEALTHY_BORROWER, LIQUIDATED, NEW_WALLET } from './scenarios-fixtures';
import { SEGMENTS, binOf, characteristicsOf } from '../../src/andromeda/characteristics';
import { FACTOR_ORDER, byPointsLost } from '../../src/andromeda/factors';
import { ANDROMEDA_1_0 } from '../../src/andromeda/model-table';
import { probabilityOf, scoreWallet } from '../../src/andromeda/scorecard';

describe('andromeda_1.0 scenarios (pinned)', () => {
  it('every points table has one entry per bin and never falls toward the safer bins; deciles ascend, their rates fall', () => {
    for (const segment of SEGMENTS) {
      const card = ANDROMEDA_1_0.segments[segment];
      for (const c of characteristicsOf(segment)) {
        const points = (card.points as Partial<Record<string, readonly number[]>>)[c.id]!;
        expect(points).toHaveLength(c.edges.length + 1);
        expect(points[0]).toBe(0);
        for (let i = 1; i < points.length; i++) expect(points[i]).toBeGreaterThanOrEqual(points[i - 1]!);
      }
    }
    const cuts = ANDROMEDA_1_0.decileCutPoints;
    expect(cuts).toHaveLength(9);
    for (let i = 1; i < cuts.length; i++) expect(cuts[i]).toBeGreaterThan(cuts[i - 1]!);
    const rates = ANDROMEDA_1_0.decileRates;
    for (let i = 1; i < rates.length; i++) expect(rates[i]).toBeLessThanOrEqual(rates[i - 1]!);
  });

  it('a long-standing healthy borrower: the debt scorecard, every point explained', () => {
    const result = scoreWallet(HEALTHY_BORROWER);
    expect(result.segment).toBe('debt');
    const sum = ANDROMEDA_1_0.segments.debt.base + result.factors.reduce((s, f) => s + f.scorePoints, 0);
    expect(result.score).toBe(Math.round(sum));
    expect(result.probability).toBeCloseTo(probabilityOf(sum), 12);
    // its $10,000 of stablecoins (held through the window) cover its $6,000 debt: the top bin
    const health = result.factors.find((f) => f.label === 'Wallet Health')!;
    expect(health.reasons[0]).toBe(
      `health factor with stablecoins held through 30 days as cover covered in full → bin ≥ 5: +${ANDROMEDA_1_0.segments.debt.points.coveredHealthFactor.at(-1)} pts`,
    );
    // adverse-action order: what costs the score most first
    const lost = byPointsLost(result.factors).map((f) => f.pointsLost);
    expect([...lost].sort((a, b) => b - a)).toEqual(lost);
  });

  it('a wallet liquidated 40 days ago is capped while it recovers, below the healthy borrower, and says why', () => {
    const result = scoreWallet(LIQUIDATED);
    expect(result.segment).toBe('noDebt');
    // 300 + 700 × (1 − 2^(−40/30)) = 722.2
    expect(result.score).toBe(722);
    expect(result.score).toBeLessThan(scoreWallet(HEALTHY_BORROWER).score);
    expect(result.factors[0]!.reasons.at(-1)).toBe('liquidated 40 days ago: the score is capped at 722 while it recovers');
  });

  it('a brand-new wallet is held at even odds, and says so', () => {
    const result = scoreWallet(NEW_WALLET);
    expect(result.score).toBe(ANDROMEDA_1_0.thin.maxScore);
    expect(result.factors[5]!.reasons.join(' ')).toContain('too little history to score (2 days old, under 30): held at 600');
  });

  it('a new wallet with a large balance is still held, in the low range, below every proven debt-free wallet', () => {
    const rich = { ...NEW_WALLET, totalAssetUsd: 5_000_000, stablecoinUsd: 5_000_000, assetCount: 6, activeChains: 3 };
    expect(scoreWallet(rich).score).toBe(600);
    expect(scoreWallet(rich).score).toBeLessThan(640);
    expect(scoreWallet(rich).score).toBeLessThan(ANDROMEDA_1_0.segments.noDebt.base);
  });

  it('an empty history gets the conservative floor, 300', () => {
    const result = scoreWallet(EMPTY);
    expect(result.score).toBe(300);
    expect(result.factors.map((f) => f.label)).toEqual(FACTOR_ORDER);
  });

  it('explanations mention each factor with the figures and bins that fired', () => {
    // with less in stablecoins than it owes: $1,000 of cover on $6,000 of debt, 2.60 × 6000 / 5000 = 3.12
    const result = scoreWallet({ ...HEALTHY_BORROWER, stablecoinUsd: 1_000 });
    const text = result.factors.map((f) => `${f.label}: ${f.reasons.join('; ')}`).join('\n');
    for (const label of FACTOR_ORDER) expect(text).toContain(`${label}: `);
    const p = ANDROMEDA_1_0.segments.debt.points;
    expect(text).toContain(
      `health factor with stablecoins held through 30 days as cover 3.12 → bin [3, 5): +${p.coveredHealthFactor[10]} pts`,
    );
    expect(text).toContain(`wallet age days 1100 → bin [730, 1460): +${p.walletAgeDays[4]} pts`);
    expect(text).toContain(`months of the last 12 with dealings with other addresses 11 → bin [9, 12): +${p.activeMonths[4]} pts`);
  });

  it('binOf puts a value at an edge in the bin above it', () => {
    expect(binOf([10, 20], 9.99)).toBe(0);
    expect(binOf([10, 20], 10)).toBe(1);
    expect(binOf([10, 20], 25)).toBe(2);
  });
});

describe('validateFeatures', () => {
  it('accepts a valid vector unchanged', () => {
    expect(validateFeatures(HEALTHY_BORROWER)).toBe(HEALTHY_BORROWER);
  });

  it.each([
    ['walletAgeDays', -1],
    ['totalAssetUsd', Number.NaN],
    ['debtUsd', Number.POSITIVE_INFINITY],
    ['healthFactor', -0.5],
    ['daysSinceLastLiquidation', Number.NaN],
    ['txCount', -3],
    ['borrowCount', 1.5],
    ['liquidationCount', Number.NaN],
    ['identityAttestations', null],
  ] as const)('rejects %s = %p with a RangeError', (field, value) => {
    const bad = { ...HEALTHY_BORROWER, [field]: value } as unknown as WalletFeatures;
    expect(() => validateFeatures(bad)).toThrow(RangeError);
    expect(() => scoreWallet(bad)).toThrow(new RegExp(field));
  });
});
