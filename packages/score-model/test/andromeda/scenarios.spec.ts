import { validateFeatures, type WalletFeatures } from '../../src/andromeda/features';
import { EMPTY, HEALTHY_BORROWER, LIQUIDATED, NEW_WALLET } from './scenarios-fixtures';
import { FACTOR_ORDER, bucketOf, byPointsLost } from '../../src/andromeda/factors';
import { ANDROMEDA_1_0 } from '../../src/andromeda/model-table';
import { scoreWallet } from '../../src/andromeda/scorecard';

describe('andromeda_1.0 scenarios (pinned)', () => {
  it('the weights sum to 1, every bucket table and the decile cut-points ascend', () => {
    const sum = Object.values(ANDROMEDA_1_0.weights).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 12);
    let tables = 0;
    const walk = (node: unknown): void => {
      if (Array.isArray(node) && typeof node[0] === 'number') {
        expect(node).toHaveLength(9);
        for (let i = 1; i < node.length; i++) expect(node[i]).toBeGreaterThan(node[i - 1]);
      } else if (Array.isArray(node)) {
        tables++;
        for (let i = 1; i < node.length; i++)
          expect((node[i] as { atLeast: number }).atLeast).toBeGreaterThan((node[i - 1] as { atLeast: number }).atLeast);
      } else if (node && typeof node === 'object') Object.values(node).forEach(walk);
    };
    walk(ANDROMEDA_1_0);
    expect(tables).toBe(6);
  });

  it('a long-standing healthy borrower', () => {
    const result = scoreWallet(HEALTHY_BORROWER);
    expect(result.score).toBe(857);
    expect(result.confidence).toBe(1);
    expect(result.factors.map((f) => [f.label, f.points, f.rating, f.pointsLost])).toEqual([
      ['Borrowing History', 60, 'fair', 42],
      ['Wallet Composition', 65, 'good', 36.8],
      ['Wallet Health', 86, 'very_good', 53.9],
      ['Interactions', 86, 'very_good', 4.9],
      ['Trust', 100, 'excellent', 0],
      ['New Credit', 85, 'very_good', 5.3],
    ]);
    // 7.2 million USD-days (about $1,000 of interest at 5 %) is a fifth of the record's scale
    expect(result.factors[0]!.reasons).toEqual([
      "$180000 of $186000 borrowed repaid by the wallet itself, 7200000 USD-days owed and repaid: 19.7% of the record's 36500000",
      '12 loan(s) of at least 10000 USD-days repaid in full',
      'record: 50 + 9.9 pts',
      'never liquidated',
    ]);
    // adverse-action order: what costs the score most first
    expect(byPointsLost(result.factors).map((f) => f.label)).toEqual([
      'Wallet Health',
      'Borrowing History',
      'Wallet Composition',
      'New Credit',
      'Interactions',
      'Trust',
    ]);
    // its $10,000 of stablecoins (held through the window) cover its $6,000 debt: health as without debt
    expect(result.factors[2]!.reasons[0]).toBe('health factor 2.60, debt covered in full by stablecoins held through 30 days: 80 pts');
  });

  it('a wallet liquidated once scores below the healthy borrower, and says why', () => {
    const result = scoreWallet(LIQUIDATED);
    expect(result.score).toBe(684);
    expect(result.score).toBeLessThan(scoreWallet(HEALTHY_BORROWER).score);
    const history = result.factors[0]!;
    expect(history.points).toBe(4);
    expect(history.rating).toBe('low');
    // the present-state factors recover over months: 100 × (1 − 2^(−40/30)) = 60
    expect(result.factors.filter((f) => f.points === 60).map((f) => f.label)).toEqual([
      'Wallet Composition',
      'Wallet Health',
      'Interactions',
    ]);
    expect(history.reasons.join(' ')).toMatch(/1 liquidation\(s\), latest 40 days ago: −46\.\d\d pts/);
  });

  it('a brand-new wallet scores conservatively, held at the prior', () => {
    const result = scoreWallet(NEW_WALLET);
    // Its raw factors would put it near 750; a confidence of 2/90 × 2/3 = 0.015 holds it at 622.
    expect(result.score).toBe(ANDROMEDA_1_0.thinHistory.prior + 2);
    expect(result.confidence).toBeCloseTo((2 / 90) * (2 / 3), 12);
    expect(result.factors[5]!.reasons.join(' ')).toContain('thin history (2 recorded actions, 2 days)');
  });

  it('a new wallet with a large balance is still held at the prior, in the low range', () => {
    const rich = { ...NEW_WALLET, totalAssetUsd: 5_000_000, stablecoinUsd: 5_000_000, assetCount: 6, activeChains: 3 };
    expect(scoreWallet(rich).score).toBe(ANDROMEDA_1_0.thinHistory.prior + 3);
    expect(scoreWallet(rich).score).toBeLessThan(640);
  });

  it('an empty history gets the conservative floor, 300', () => {
    const result = scoreWallet(EMPTY);
    expect(result.score).toBe(300);
    expect(result.confidence).toBe(0);
    expect(result.factors.map((f) => f.label)).toEqual(FACTOR_ORDER);
  });

  it('explanations mention each factor with the figures that fired', () => {
    // with less in stablecoins than it owes: $1,000 of cover on $6,000 of debt, 2.60 × 6000 / 5000 = 3.12
    const result = scoreWallet({ ...HEALTHY_BORROWER, stablecoinUsd: 1_000 });
    const text = result.factors.map((f) => `${f.label}: ${f.reasons.join('; ')}`).join('\n');
    for (const label of FACTOR_ORDER) expect(text).toContain(`${label}: `);
    expect(text).toContain('health factor 2.60, with stablecoins held through 30 days as cover 3.12 → bucket ≥ 3: 77 pts');
    expect(text).toContain('wallet age days 1100 → bucket ≥ 730: 85 pts');
    expect(text).toContain('11 of the last 12 months with dealings with other addresses: 92 pts');
    expect(text).toContain('passport score 28 (at or above 20): +30; a name owned for 400 days (full at 365): +30.0');
  });

  it('bucketOf takes the last row at or below the value', () => {
    const table = [
      { atLeast: 0, points: 0 },
      { atLeast: 10, points: 50 },
    ];
    expect(bucketOf(table, 9.99).points).toBe(0);
    expect(bucketOf(table, 10).points).toBe(50);
    expect(bucketOf(table, -1).points).toBe(0);
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
