import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { probabilityOf, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { aucMannWhitney } from '../calibration/auc';
import { fitLogisticBaseline, hasDebtRisk, healthFactorRisk, logisticRisk } from './baselines';
import { bootstrapAucByGroup, type AucInterval } from './bootstrap';
import { decileCalibration, type DecileCalibration } from './decile-calibration';
import { ksStatistic } from './ks';
import { pairedAucDifference, type AucDifference } from './paired-difference';
import { protocolHash, tableHash, type EvaluationWorld } from './protocol';
import { summary, type Summary } from './quantiles';
import { atRisk, type WorldDataset } from './world-dataset';

/** How one ranking (the model or a baseline) did on one side of the protocol. */
export interface SideFigures {
  /** Pooled over the side's wallets, with a 95 % cluster-bootstrap interval (worlds resampled). */
  auc: AucInterval;
  /** Per world: the spread a single world's AUC has. */
  perWorld: Summary;
  ks: number;
}

export interface RankingFigures {
  name: string;
  description: string;
  training: SideFigures;
  heldOut: SideFigures;
}

/** The figures of one population (the wallets at risk, or every wallet). */
export interface PopulationFigures {
  counts: { training: { wallets: number; liquidated: number }; heldOut: { wallets: number; liquidated: number } };
  /** The model, then the baselines, then the ceiling. */
  rankings: RankingFigures[];
  /** Held-out AUC per world, by world name (the model). */
  heldOutByWorld: Record<string, number>;
  /** Training AUC − held-out AUC, pooled (the model). */
  trainTestGap: number;
  /** The table's deciles (cut-points and stated probabilities measured at T on training) judged on the held-out wallets. */
  calibration: DecileCalibration;
  /** Each factor's points left out of the score: held-out pooled AUC and the change. */
  ablations: { factor: FactorLabel; heldOutAuc: number; change: number }[];
  /** Held-out AUC of the model − of the health factor alone, with a paired cluster-bootstrap interval. */
  versusHealthFactor: AucDifference;
  /** Held-out AUC of the model − of the logistic-regression challenger, paired cluster-bootstrap interval. */
  versusChallenger: AucDifference;
  /**
   * Share of the ceiling's lift over chance, (AUC − 0.5) / (ceiling − 0.5), held out; null without a
   * ceiling. `marketBlind`: the same against the ceiling blind to the market ahead (`MarketBlindCeiling`).
   */
  ceilingLift: { model: number; challenger: number; marketBlind: { model: number; challenger: number } | null } | null;
  /** Held out, per world family: wallets, liquidations, the model's and the health factor's pooled AUC. */
  byFamily: Record<string, { wallets: number; liquidated: number; modelAuc: number | null; healthFactorAuc: number | null }>;
}

export interface EvaluationReport {
  model: 'andromeda_1.0';
  /** The table's revision and fingerprint, the protocol's fingerprint: what was registered before the held-out run. */
  revision: string;
  tableHash: string;
  protocolHash: string;
  /** The commit that registered them (set by the command, which checks it). */
  registrationCommit?: string;
  worlds: { training: EvaluationWorld[]; heldOut: EvaluationWorld[] };
  /**
   * `atRisk`: the wallets with debt at T, the only ones a liquidation can happen to (the protocol's
   * first population); `all`: every wallet with activity at T, holders included.
   */
  populations: { atRisk: PopulationFigures; all: PopulationFigures };
  /**
   * The CI guard (model-auc.devnet.spec): a held-out world's AUC must be at least `minWorldAuc`,
   * the 5th percentile of the held-out worlds' AUCs (the measured spread of one world's figure).
   */
  guard: { world: string; worldAuc: number; minWorldAuc: number };
}

interface Labelled {
  world: string;
  family: string;
  features: WalletFeatures;
  liquidated: boolean;
  ceiling: number | null;
  marketBlindCeiling: number | null;
}

const BOOTSTRAP = { resamples: 1000, seed: 'andromeda-evaluation' };

function side(rows: readonly Labelled[], risk: (row: Labelled) => number, seed: string): SideFigures {
  const risks = rows.map(risk);
  const outcomes = rows.map((r) => r.liquidated);
  const worlds = [...new Set(rows.map((r) => r.world))];
  const perWorld = worlds.flatMap((w) => {
    const idx = rows.flatMap((r, i) => (r.world === w ? [i] : []));
    const y = idx.map((i) => outcomes[i]!);
    return y.some(Boolean) && !y.every(Boolean)
      ? [
          aucMannWhitney(
            idx.map((i) => risks[i]!),
            y,
          ),
        ]
      : [];
  });
  return {
    auc: bootstrapAucByGroup(
      rows.map((r, i) => ({ risk: risks[i]!, outcome: r.liquidated, group: r.world })),
      { ...BOOTSTRAP, seed: `${BOOTSTRAP.seed}:${seed}` },
    ),
    perWorld: summary(perWorld),
    ks: ksStatistic(risks, outcomes),
  };
}

function worldAucs(rows: readonly Labelled[], risk: (row: Labelled) => number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const w of new Set(rows.map((r) => r.world))) {
    const mine = rows.filter((r) => r.world === w);
    if (mine.some((r) => r.liquidated) && !mine.every((r) => r.liquidated)) {
      out[w] = aucMannWhitney(
        mine.map(risk),
        mine.map((r) => r.liquidated),
      );
    }
  }
  return out;
}

const labelled = (datasets: readonly WorldDataset[]): Labelled[] =>
  datasets.flatMap((d) =>
    d.members.map((m) => ({
      world: d.world.name,
      family: d.world.family,
      features: m.features,
      liquidated: m.liquidated,
      ceiling: m.ceiling,
      marketBlindCeiling: m.marketBlindCeiling ?? null,
    })),
  );

/** One population's figures: the frozen table, the baselines, the ceiling, calibration, ablations. */
function populationFigures(training: readonly Labelled[], heldOut: readonly Labelled[]): PopulationFigures {
  const results = new Map<Labelled, ReturnType<typeof scoreWallet>>();
  for (const row of [...training, ...heldOut]) results.set(row, scoreWallet(row.features));
  const modelRisk = (row: Labelled) => 1000 - results.get(row)!.score;
  const logistic = fitLogisticBaseline(
    training.map((r) => r.features),
    training.map((r) => r.liquidated),
  );

  const rankings: { name: string; description: string; risk: (row: Labelled) => number }[] = [
    { name: 'andromeda_1.0', description: 'the frozen table (1000 − score)', risk: modelRisk },
    { name: 'health factor only', description: 'the lowest health factor; no debt is safest', risk: (r) => healthFactorRisk(r.features) },
    { name: 'has debt', description: 'one bit: an open loan', risk: (r) => hasDebtRisk(r.features) },
    {
      name: 'logistic regression',
      description: 'every feature of the model, fitted on the training worlds',
      risk: (r) => logisticRisk(logistic)(r.features),
    },
  ];
  if ([...training, ...heldOut].every((r) => r.ceiling !== null)) {
    rankings.push({
      name: 'ceiling',
      description: "the hidden traits' own liquidation probability, the world's market ahead known",
      risk: (r) => r.ceiling!,
    });
  }
  if ([...training, ...heldOut].every((r) => r.marketBlindCeiling !== null)) {
    rankings.push({
      name: 'market-blind ceiling',
      description:
        "the hidden traits' own liquidation probability, the market ahead drawn from the training prior (no model can know more at T)",
      risk: (r) => r.marketBlindCeiling!,
    });
  }
  const figures = rankings.map((r) => ({
    name: r.name,
    description: r.description,
    training: side(training, r.risk, `${r.name}:training`),
    heldOut: side(heldOut, r.risk, `${r.name}:held-out`),
  }));
  const model = figures[0]!;

  const ablations = FACTOR_LABELS.map((factor) => {
    const auc = aucMannWhitney(
      heldOut.map((r) => {
        const result = results.get(r)!;
        return result.factors.find((x) => x.label === factor)!.scorePoints - result.score;
      }),
      heldOut.map((r) => r.liquidated),
    );
    return { factor, heldOutAuc: auc, change: auc - model.heldOut.auc.auc };
  });
  const challengerRisk = rankings[3]!.risk;
  const ceiling = figures.find((f) => f.name === 'ceiling');
  const blindCeiling = figures.find((f) => f.name === 'market-blind ceiling');
  const liftOver = (top: RankingFigures, auc: number) => (auc - 0.5) / (top.heldOut.auc.auc - 0.5);
  const liftsOver = (top: RankingFigures) => ({
    model: liftOver(top, model.heldOut.auc.auc),
    challenger: liftOver(top, figures[3]!.heldOut.auc.auc),
  });
  const aucOf = (rows: readonly Labelled[], risk: (row: Labelled) => number) =>
    rows.some((r) => r.liquidated) && !rows.every((r) => r.liquidated)
      ? aucMannWhitney(
          rows.map(risk),
          rows.map((r) => r.liquidated),
        )
      : null;
  const byFamily = Object.fromEntries(
    [...new Set(heldOut.map((r) => r.family))].map((family) => {
      const rows = heldOut.filter((r) => r.family === family);
      return [
        family,
        {
          wallets: rows.length,
          liquidated: rows.filter((r) => r.liquidated).length,
          modelAuc: aucOf(rows, modelRisk),
          healthFactorAuc: aucOf(rows, (r) => healthFactorRisk(r.features)),
        },
      ];
    }),
  );

  return {
    counts: {
      training: { wallets: training.length, liquidated: training.filter((r) => r.liquidated).length },
      heldOut: { wallets: heldOut.length, liquidated: heldOut.filter((r) => r.liquidated).length },
    },
    rankings: figures,
    heldOutByWorld: worldAucs(heldOut, modelRisk),
    trainTestGap: model.training.auc.auc - model.heldOut.auc.auc,
    calibration: decileCalibration(
      training.map((r) => ({ score: results.get(r)!.score })),
      heldOut.map((r) => ({ score: results.get(r)!.score, probability: probabilityOf(results.get(r)!.score), outcome: r.liquidated })),
      ANDROMEDA_1_0.decileCutPoints,
      ANDROMEDA_1_0.decileRates,
    ),
    ablations,
    versusHealthFactor: pairedAucDifference(
      heldOut.map((r) => ({ riskA: modelRisk(r), riskB: healthFactorRisk(r.features), outcome: r.liquidated, group: r.world })),
      { seed: `${BOOTSTRAP.seed}:versus-health-factor` },
    ),
    versusChallenger: pairedAucDifference(
      heldOut.map((r) => ({ riskA: modelRisk(r), riskB: challengerRisk(r), outcome: r.liquidated, group: r.world })),
      { seed: `${BOOTSTRAP.seed}:versus-challenger` },
    ),
    ceilingLift: ceiling ? { ...liftsOver(ceiling), marketBlind: blindCeiling ? liftsOver(blindCeiling) : null } : null,
    byFamily,
  };
}

/**
 * The whole evaluation from the worlds' datasets (pure), for the wallets at risk (debt at T) and
 * for every wallet: the fitted table scored on training and held-out worlds, the baselines (the
 * health factor alone, has-debt, a logistic regression fitted on the training worlds) with paired
 * intervals, the ceiling (the hidden traits' own probability) and the share of its lift, the
 * deciles' calibration, the factors' ablations, the figures per held-out family, and the CI
 * guard's figure (the wallets at risk of the first held-out world).
 */
export function evaluationReport(datasets: readonly WorldDataset[]): EvaluationReport {
  const trainingSets = datasets.filter((d) => d.world.role === 'training');
  const heldOutSets = datasets.filter((d) => d.world.role === 'held-out');
  const training = labelled(trainingSets);
  const heldOut = labelled(heldOutSets);
  const atRiskFigures = populationFigures(training.filter(atRisk), heldOut.filter(atRisk));
  const guardWorld = heldOutSets[0]!.world.name;
  return {
    model: 'andromeda_1.0',
    revision: ANDROMEDA_1_0.revision,
    tableHash: tableHash(),
    protocolHash: protocolHash(),
    worlds: { training: trainingSets.map((d) => d.world), heldOut: heldOutSets.map((d) => d.world) },
    populations: { atRisk: atRiskFigures, all: populationFigures(training, heldOut) },
    guard: {
      world: guardWorld,
      worldAuc: atRiskFigures.heldOutByWorld[guardWorld]!,
      minWorldAuc: atRiskFigures.rankings[0]!.heldOut.perWorld.p5,
    },
  };
}
