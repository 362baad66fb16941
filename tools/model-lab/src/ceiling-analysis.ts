/**
 * Where the ceiling's lift over the model comes from, on the training worlds only (never a
 * held-out one):
 *
 *   node tools/model-lab/dist/ceiling-analysis.js [--cache .cache/model-evaluation]
 *
 * Among the training worlds' wallets at risk, prints the AUC of the ceiling, of the ceiling with
 * each world's mean log-odds taken out (roughly, without its knowledge of which world's market is
 * the riskier), of the market-blind ceiling (`MarketBlindCeiling`), of the health factor alone, and the leave-one-training-world-out AUC of the
 * challenger's logistic regression with and without discipline proxies. Reads the datasets
 * `pnpm model:fit` collects (seeding the training worlds first when they are not kept yet).
 * docs/model-tuning-log.md, 2026-11-27, holds its first run.
 */
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { aucMannWhitney } from './calibration/auc';
import { elapsedLog, runMain } from './calibration/cli';
import { healthFactorRisk, logisticInputs } from './evaluation/baselines';
import { fitLogistic, predictLogistic } from './evaluation/logistic-regression';
import { evaluationWorlds } from './evaluation/protocol';
import { disciplineProxies } from './evaluation/discipline-proxies';
import { atRisk, collectOptions, collectWorld } from './evaluation/world-dataset';

interface Row {
  world: string;
  features: WalletFeatures;
  liquidated: boolean;
  ceiling: number;
  marketBlindCeiling: number;
}

const logit = (p: number): number => Math.log(Math.max(1e-6, p) / Math.max(1e-6, 1 - p));

/** Pooled AUC of risks predicted for each world by a regression fitted on the other worlds. */
function leaveOneWorldOutAuc(rows: readonly Row[], inputs: (f: WalletFeatures) => number[]): number {
  const risk = new Array<number>(rows.length);
  for (const world of new Set(rows.map((r) => r.world))) {
    const training = rows.filter((r) => r.world !== world);
    const model = fitLogistic(
      training.map((r) => inputs(r.features)),
      training.map((r) => r.liquidated),
      { l2: 1e-2, iterations: 100 },
    );
    rows.forEach((r, i) => {
      if (r.world === world) risk[i] = predictLogistic(model, inputs(r.features));
    });
  }
  return aucMannWhitney(
    risk,
    rows.map((r) => r.liquidated),
  );
}

/** The ceiling's log-odds less its world's mean: what it knows of a wallet beyond its world's market. */
function withinWorldCeiling(rows: readonly Row[]): number[] {
  const sums = new Map<string, { total: number; n: number }>();
  for (const r of rows) {
    const s = sums.get(r.world) ?? { total: 0, n: 0 };
    s.total += logit(r.ceiling);
    s.n += 1;
    sums.set(r.world, s);
  }
  return rows.map((r) => {
    const s = sums.get(r.world)!;
    return logit(r.ceiling) - s.total / s.n;
  });
}

async function main(): Promise<void> {
  const log = elapsedLog();
  const rows: Row[] = [];
  for (const world of evaluationWorlds().filter((w) => w.role === 'training')) {
    const dataset = await collectWorld(world, collectOptions(log));
    for (const m of dataset.members) {
      if (atRisk(m)) {
        rows.push({
          world: world.name,
          features: m.features,
          liquidated: m.liquidated,
          ceiling: m.ceiling ?? 0,
          marketBlindCeiling: m.marketBlindCeiling ?? 0,
        });
      }
    }
  }
  const outcomes = rows.map((r) => r.liquidated);
  const figures: [string, number][] = [
    [
      'the ceiling',
      aucMannWhitney(
        rows.map((r) => r.ceiling),
        outcomes,
      ),
    ],
    ["the ceiling, each world's mean log-odds taken out", aucMannWhitney(withinWorldCeiling(rows), outcomes)],
    [
      'the market-blind ceiling (the market ahead drawn from the training prior)',
      aucMannWhitney(
        rows.map((r) => r.marketBlindCeiling),
        outcomes,
      ),
    ],
    [
      'the health factor alone',
      aucMannWhitney(
        rows.map((r) => healthFactorRisk(r.features)),
        outcomes,
      ),
    ],
    ["logistic regression, the challenger's inputs, leave-one-world-out", leaveOneWorldOutAuc(rows, logisticInputs)],
    [
      'the same plus discipline proxies, leave-one-world-out',
      leaveOneWorldOutAuc(rows, (f) => [...logisticInputs(f), ...disciplineProxies(f)]),
    ],
  ];
  console.log(`Training worlds' wallets at risk: ${rows.length}, liquidated ${outcomes.filter(Boolean).length}.\n`);
  console.log('| Ranking (training, wallets at risk) | AUC |\n|---|---|');
  for (const [name, auc] of figures) console.log(`| ${name} | ${auc.toFixed(4)} |`);
}

runMain(main);
