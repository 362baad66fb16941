import { FACTOR_LABELS, type FactorLabel } from '@credit/contracts/schemas/score';
import { combineFactors, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { aucMannWhitney } from '../calibration/auc';
import { atRisk, type WorldDataset } from './world-dataset';

export interface TunedWeights {
  weights: Record<FactorLabel, number>;
  /** Pooled AUC on the training worlds with these weights. */
  trainingAuc: number;
  /** Weight vectors tried. */
  tried: number;
}

/** Every way to split `units` into `parts` non-negative integers (stars and bars). */
function* compositions(units: number, parts: number): Generator<number[]> {
  if (parts === 1) {
    yield [units];
    return;
  }
  for (let first = 0; first <= units; first++) for (const rest of compositions(units - first, parts - 1)) yield [first, ...rest];
}

/**
 * The weights that rank the TRAINING worlds' liquidations best among the wallets at risk (pooled
 * AUC over the wallets with debt at T, `atRisk`), searched over a grid
 * of step `step` with every factor at least `floor` (each factor keeps a say: the API explains a
 * score by all six). The factors' own tables are held fixed; only how much each counts is tuned.
 * Held-out worlds are never read here: `evaluationReport` judges the result on them.
 */
export function tuneWeights(training: readonly WorldDataset[], step = 0.05, floor = 0.05): TunedWeights {
  const wallets = training.flatMap((d) => d.members).filter(atRisk);
  const results = wallets.map((m) => scoreWallet(m.features));
  const outcomes = wallets.map((m) => m.liquidated);
  const free = Math.round((1 - floor * FACTOR_LABELS.length) / step);
  let best: TunedWeights | null = null;
  let tried = 0;
  for (const split of compositions(free, FACTOR_LABELS.length)) {
    const weights = Object.fromEntries(FACTOR_LABELS.map((l, i) => [l, Math.round((floor + split[i]! * step) * 1000) / 1000])) as Record<
      FactorLabel,
      number
    >;
    const auc = aucMannWhitney(
      results.map((r) => 1000 - combineFactors(r.factors, r.confidence, weights)),
      outcomes,
    );
    tried++;
    if (best === null || auc > best.trainingAuc + 1e-12) best = { weights, trainingAuc: auc, tried: 0 };
  }
  return { ...best!, tried };
}
