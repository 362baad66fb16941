import { decileUnder } from '../calibration/decile-cut-points';
import { brierScore } from './scoring-rules';

export { brierScore } from './scoring-rules';

/** A wallet's score and whether it defaulted (was liquidated). */
export interface ScoredOutcome {
  score: number;
  outcome: boolean;
}

/** One decile of the calibration table. */
export interface CalibrationRow {
  /** 1..10; decile 1 holds the lowest scores (`decileUnder`). */
  decile: number;
  /** Held-out wallets in the decile, and how many of them defaulted. */
  count: number;
  defaults: number;
  /** defaults / count; null when no held-out wallet falls in the decile. */
  observedRate: number | null;
  /** Training wallets in the decile, and how many of them defaulted. */
  trainingCount: number;
  trainingDefaults: number;
  /**
   * The forecast for a wallet in this decile: the training default rate with Laplace smoothing,
   * (trainingDefaults + 1) / (trainingCount + 2), so an empty training decile forecasts 0.5 and a
   * decile without defaults does not forecast exactly 0.
   */
  predictedRate: number;
  /** Brier score of the forecast over the held-out wallets of the decile; null when there are none. */
  brier: number | null;
}

/** The calibration table, with the Brier score over every held-out wallet. */
export interface CalibrationTable {
  rows: CalibrationRow[];
  /** Held-out wallets in all (the sum of the rows' counts). */
  count: number;
  /** Brier score of every held-out wallet's decile forecast; null when nothing was held out. */
  brier: number | null;
}

/**
 * Out-of-sample calibration of score deciles. Each wallet is put in a decile by the nine ascending
 * cut-points (`decileUnder`: 1 + the number of cut-points at or below its score). The training
 * wallets set each decile's forecast default rate (`predictedRate`, Laplace-smoothed); the held-out
 * wallets are counted per decile, their observed default rate is set beside the forecast, and the
 * forecast is scored by its Brier score, per decile and overall.
 *
 * Throws a RangeError unless there are exactly nine finite, non-decreasing cut-points and every
 * score is finite.
 */
export function calibrationTable(
  training: readonly ScoredOutcome[],
  heldOut: readonly ScoredOutcome[],
  cutPoints: readonly number[],
): CalibrationTable {
  if (cutPoints.length !== 9) throw new RangeError(`need nine cut-points, got ${cutPoints.length}`);
  cutPoints.forEach((c, i) => {
    if (!Number.isFinite(c)) throw new RangeError(`cut-point must be finite, got ${c}`);
    if (i > 0 && c < cutPoints[i - 1]!) throw new RangeError(`cut-points must be ascending: ${cutPoints.join(', ')}`);
  });
  const decileOf = ({ score }: ScoredOutcome): number => {
    if (!Number.isFinite(score)) throw new RangeError(`score must be finite, got ${score}`);
    return decileUnder(cutPoints, score);
  };

  const trainingCount = new Array<number>(10).fill(0);
  const trainingDefaults = new Array<number>(10).fill(0);
  for (const wallet of training) {
    const k = decileOf(wallet) - 1;
    trainingCount[k]! += 1;
    if (wallet.outcome) trainingDefaults[k]! += 1;
  }
  const predicted = trainingCount.map((count, k) => (trainingDefaults[k]! + 1) / (count + 2));

  const forecasts: number[][] = Array.from({ length: 10 }, () => []);
  const outcomes: boolean[][] = Array.from({ length: 10 }, () => []);
  for (const wallet of heldOut) {
    const k = decileOf(wallet) - 1;
    forecasts[k]!.push(predicted[k]!);
    outcomes[k]!.push(wallet.outcome);
  }

  const rows = predicted.map((predictedRate, k): CalibrationRow => {
    const count = outcomes[k]!.length;
    const defaults = outcomes[k]!.filter(Boolean).length;
    return {
      decile: k + 1,
      count,
      defaults,
      observedRate: count === 0 ? null : defaults / count,
      trainingCount: trainingCount[k]!,
      trainingDefaults: trainingDefaults[k]!,
      predictedRate,
      brier: count === 0 ? null : brierScore(forecasts[k]!, outcomes[k]!),
    };
  });
  return {
    rows,
    count: heldOut.length,
    brier: heldOut.length === 0 ? null : brierScore(forecasts.flat(), outcomes.flat()),
  };
}
