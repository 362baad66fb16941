import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { evaluationReport } from '../src/evaluation/evaluation-report';
import {
  FIXED_FAMILY,
  FIXED_FAMILY_2,
  FIXED_FAMILY_3,
  HELD_OUT_FAMILIES,
  TRAINING_PRIOR,
  evaluationWorlds,
  protocolHash,
  tableHash,
  worldKey,
} from '../src/evaluation/protocol';
import { renderEvaluation, withEvaluation } from '../src/evaluation/render-evaluation';
import { seededRandom } from '../src/evaluation/seeded-random';
import type { WorldDataset } from '../src/evaluation/world-dataset';

const inside = (x: number, [lo, hi]: readonly [number, number]) => x >= lo && x <= hi;

describe('the registered evaluation protocol', () => {
  const worlds = evaluationWorlds();
  const heldOut = worlds.filter((w) => w.role === 'held-out');

  it('has 12 training worlds (the reference world first), 4 per held-out family and the three fixed families, each named once', () => {
    expect(worlds.filter((w) => w.role === 'training')).toHaveLength(12);
    expect(heldOut).toHaveLength(
      4 * Object.keys(HELD_OUT_FAMILIES).length + FIXED_FAMILY.length + FIXED_FAMILY_2.length + FIXED_FAMILY_3.length,
    );
    expect(worlds[0]!.name).toBe('reference');
    expect(new Set(worlds.map((w) => w.name)).size).toBe(worlds.length);
    expect(new Set(worlds.map((w) => worldKey(w))).size).toBe(worlds.length);
  });

  it("draws each family's own settings outside the training prior, the rest inside it", () => {
    const value = (w: (typeof worlds)[number], key: string): number =>
      key === 'jumpDepthMax'
        ? w.params.jumpDepth![1]
        : key === 'loanShareMax'
          ? w.params.loanShare![1]
          : (w.params as Record<string, number>)[key]!;
    for (const w of heldOut.filter((x) => !x.family.startsWith('fixed'))) {
      const own = HELD_OUT_FAMILIES[w.family]!;
      for (const key of Object.keys(TRAINING_PRIOR) as (keyof typeof TRAINING_PRIOR)[]) {
        expect(inside(value(w, key), TRAINING_PRIOR[key])).toBe(own[key] === undefined);
      }
    }
    for (const w of worlds.filter((x) => x.role === 'training' && x.name !== 'reference')) {
      for (const key of Object.keys(TRAINING_PRIOR) as (keyof typeof TRAINING_PRIOR)[])
        expect(inside(value(w, key), TRAINING_PRIOR[key])).toBe(true);
    }
  });

  it('is the same protocol on every run (worlds, keys and fingerprints are pure functions of their names)', () => {
    expect(evaluationWorlds()).toEqual(worlds);
    expect(protocolHash()).toMatch(/^[0-9a-f]{16}$/);
    expect(tableHash()).toMatch(/^[0-9a-f]{16}$/);
  });
});

/** A synthetic wallet: debt or not, a health factor, liquidated with a probability falling with it. */
function wallet(random: () => number): { features: WalletFeatures; liquidated: boolean; ceiling: number; marketBlindCeiling: number } {
  const borrower = random() < 0.7;
  const hf = borrower ? 1 + random() * 2 : null;
  const p = hf === null ? 0 : Math.max(0, 1.6 - hf) / 0.6;
  return {
    features: {
      walletAgeDays: 200 + random() * 800,
      daysSinceLastActivity: random() * 30,
      txCount: 5 + Math.floor(random() * 30),
      transferCount: Math.floor(random() * 20),
      activeChains: 1,
      totalAssetUsd: 1_000 + random() * 10_000,
      stablecoinUsd: random() * 500,
      assetCount: 2,
      collateralUsd: borrower ? 10_000 : 0,
      debtUsd: borrower ? 5_000 : 0,
      healthFactor: hf,
      supplyCount: borrower ? 1 : 0,
      borrowCount: borrower ? 1 : 0,
      repayCount: 0,
      borrowedUsd: borrower ? 5_000 : 0,
      repaidUsd: 0,
      repaidUsdDays: 0,
      loansRepaid: 0,
      liquidationCount: 0,
      daysSinceLastLiquidation: null,
      identityAttestations: 0,
      activeMonths: 0,
      counterparties: 0,
      passportScore: null,
      ensHeldDays: null,
      poapsAged: 0,
    },
    liquidated: random() < p,
    ceiling: p,
    // blind to the market ahead: the same ordering, blurred
    marketBlindCeiling: p * (0.5 + random()),
  };
}

describe('the evaluation report', () => {
  const random = seededRandom('evaluation-report-test');
  const datasets: WorldDataset[] = evaluationWorlds()
    .slice(0, 12)
    .map((world, i) => ({
      world: { ...world, role: i < 4 ? 'training' : 'held-out' },
      key: worldKey(world),
      featuresAt: 0,
      members: Array.from({ length: 80 }, () => ({ address: '0x0000000000000000000000000000000000000001', ...wallet(random) })),
    }));
  const report = evaluationReport(datasets);

  it('judges both populations with the model, the baselines and both ceilings', () => {
    for (const p of [report.populations.atRisk, report.populations.all]) {
      expect(p.rankings.map((r) => r.name)).toEqual([
        'andromeda_1.0',
        'health factor only',
        'has debt',
        'logistic regression',
        'ceiling',
        'market-blind ceiling',
      ]);
      const auc = (name: string) => p.rankings.find((r) => r.name === name)!.heldOut.auc.auc;
      const share = (top: string) => (auc('andromeda_1.0') - 0.5) / (auc(top) - 0.5);
      expect(p.ceilingLift!.model).toBeCloseTo(share('ceiling'), 12);
      expect(p.ceilingLift!.marketBlind!.model).toBeCloseTo(share('market-blind ceiling'), 12);
      // the blurred ceiling ranks worse, so the model has more of its lift
      expect(p.ceilingLift!.marketBlind!.model).toBeGreaterThan(p.ceilingLift!.model);
      for (const r of p.rankings) {
        expect(r.heldOut.auc.low).toBeLessThanOrEqual(r.heldOut.auc.auc);
        expect(r.heldOut.auc.high).toBeGreaterThanOrEqual(r.heldOut.auc.auc);
      }
      expect(p.calibration.rows.reduce((sum, r) => sum + r.count, 0)).toBe(p.counts.heldOut.wallets);
      expect(p.versusChallenger.low).toBeLessThanOrEqual(p.versusChallenger.difference);
      expect(p.ablations).toHaveLength(6);
    }
    // only borrowers are at risk: "has debt" cannot rank them
    expect(report.populations.atRisk.rankings[2]!.heldOut.auc.auc).toBeCloseTo(0.5, 10);
    // the outcome here is the health factor's: it and the ceiling rank it well
    expect(report.populations.atRisk.rankings[1]!.heldOut.auc.auc).toBeGreaterThan(0.8);
  });

  it("holds the CI guard to the first held-out world and the held-out worlds' 5th percentile", () => {
    expect(report.guard.world).toBe(datasets[4]!.world.name);
    expect(report.guard.worldAuc).toBe(report.populations.atRisk.heldOutByWorld[report.guard.world]);
    expect(report.guard.minWorldAuc).toBe(report.populations.atRisk.rankings[0]!.heldOut.perWorld.p5);
    expect(report.tableHash).toBe(tableHash());
  });

  it('renders a section that states the verdict and replaces itself in the card', () => {
    const section = renderEvaluation(report);
    expect(section).toContain('**Verdict.** andromeda_1.0');
    expect(section).toContain('Against the market-blind ceiling');
    const card = withEvaluation('# Card\n\n<!-- evaluation:begin -->\nold\n<!-- evaluation:end -->\n\n## After\n', section);
    expect(card).toContain(section);
    expect(card).not.toContain('\nold\n');
    expect(card.endsWith('## After\n')).toBe(true);
  });
});
