import { validateFeatures, type WalletFeatures } from '../../src/andromeda/features';
import { ANDROMEDA_1_0, FACTOR_ORDER, bucketOf, scoreWallet } from '../../src/andromeda/scorecard';

/** Nothing recorded at all. */
const EMPTY: WalletFeatures = {
  walletAgeDays: 0,
  daysSinceLastActivity: 0,
  txCount: 0,
  transferCount: 0,
  activeChains: 0,
  totalAssetUsd: 0,
  stablecoinUsd: 0,
  assetCount: 0,
  collateralUsd: 0,
  debtUsd: 0,
  healthFactor: null,
  supplyCount: 0,
  borrowCount: 0,
  repayCount: 0,
  liquidationCount: 0,
  daysSinceLastLiquidation: null,
  identityAttestations: 0,
};

/** Three years of use, 13 loans of which 12 repaid, a comfortable open position (the devnet's story). */
const HEALTHY_BORROWER: WalletFeatures = {
  ...EMPTY,
  walletAgeDays: 1100,
  daysSinceLastActivity: 3,
  txCount: 60,
  transferCount: 80,
  activeChains: 1,
  totalAssetUsd: 25_000,
  stablecoinUsd: 10_000,
  assetCount: 4,
  collateralUsd: 20_000,
  debtUsd: 6_000,
  healthFactor: 2.6,
  supplyCount: 8,
  borrowCount: 13,
  repayCount: 12,
};

/** The same kind of wallet liquidated once, 40 days ago, now without debt. */
const LIQUIDATED: WalletFeatures = {
  ...HEALTHY_BORROWER,
  borrowCount: 4,
  repayCount: 2,
  collateralUsd: 2_000,
  debtUsd: 0,
  healthFactor: null,
  liquidationCount: 1,
  daysSinceLastLiquidation: 40,
};

/** A single transaction two days ago. */
const NEW_WALLET: WalletFeatures = {
  ...EMPTY,
  walletAgeDays: 2,
  daysSinceLastActivity: 2,
  txCount: 1,
  transferCount: 1,
  activeChains: 1,
  totalAssetUsd: 500,
  stablecoinUsd: 500,
  assetCount: 1,
};

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
    expect(tables).toBe(13);
  });

  it('a long-standing healthy borrower', () => {
    const result = scoreWallet(HEALTHY_BORROWER);
    expect(result.score).toBe(869);
    expect(result.confidence).toBe(1);
    expect(result.factors.map((f) => [f.label, f.points, f.rating])).toEqual([
      ['Borrowing History', 97, 'excellent'],
      ['Wallet Composition', 69, 'good'],
      ['Wallet Health', 79, 'very_good'],
      ['Interactions', 81, 'very_good'],
      ['Trust', 40, 'low'],
      ['New Credit', 85, 'very_good'],
    ]);
    expect(result.factors[0]!.reasons).toEqual([
      'loans repaid 12 → bucket ≥ 12: 100 pts',
      '12 of 13 loans repaid (92%)',
      'never liquidated',
    ]);
  });

  it('a wallet liquidated once scores below the healthy borrower, and says why', () => {
    const result = scoreWallet(LIQUIDATED);
    expect(result.score).toBe(733);
    expect(result.score).toBeLessThan(scoreWallet(HEALTHY_BORROWER).score);
    const history = result.factors[0]!;
    expect(history.points).toBe(4);
    expect(history.rating).toBe('low');
    expect(history.reasons.join(' ')).toMatch(/1 liquidation\(s\), latest 40\.00 days ago: −46\.\d\d pts/);
  });

  it('a brand-new wallet scores conservatively, held at the prior', () => {
    const result = scoreWallet(NEW_WALLET);
    // Its raw factors would put it near 750; a confidence of 2/90 × 1/3 = 0.0074 holds it at 621.
    expect(result.score).toBe(ANDROMEDA_1_0.thinHistory.prior + 1);
    expect(result.confidence).toBeCloseTo(2 / 90 / 3, 12);
    expect(result.factors[5]!.reasons.join(' ')).toContain('thin history (1 tx, 2.00 days)');
  });

  it('a new wallet with a large balance is still held at the prior, in the low range', () => {
    const rich = { ...NEW_WALLET, totalAssetUsd: 5_000_000, stablecoinUsd: 5_000_000, assetCount: 6, activeChains: 3 };
    expect(scoreWallet(rich).score).toBe(ANDROMEDA_1_0.thinHistory.prior + 1);
    expect(scoreWallet(rich).score).toBeLessThan(640);
  });

  it('an empty history gets the conservative floor, 300', () => {
    const result = scoreWallet(EMPTY);
    expect(result.score).toBe(300);
    expect(result.confidence).toBe(0);
    expect(result.factors.map((f) => f.label)).toEqual(FACTOR_ORDER);
  });

  it('explanations mention each factor with the figures that fired', () => {
    const result = scoreWallet(HEALTHY_BORROWER);
    const text = result.factors.map((f) => `${f.label}: ${f.reasons.join('; ')}`).join('\n');
    for (const label of FACTOR_ORDER) expect(text).toContain(`${label}: `);
    expect(text).toContain('health factor 2.60 → bucket ≥ 2: 70 pts');
    expect(text).toContain('wallet age days 1100.00 → bucket ≥ 730: 85 pts');
    expect(text).toContain('identity attestations 0 → bucket ≥ 0: 40 pts');
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
