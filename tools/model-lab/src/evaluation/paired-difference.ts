import { aucMannWhitney } from '../calibration/auc';
import { quantile } from './quantiles';
import { randomInt, seededRandom } from './seeded-random';

export interface AucDifference {
  /** AUC(a) − AUC(b) on all wallets pooled. */
  difference: number;
  /** 95 % percentile interval of the difference over cluster resamples (groups drawn with replacement). */
  low: number;
  high: number;
}

/**
 * The difference of two rankings' AUCs on the same wallets, with a paired cluster bootstrap: each
 * resample draws whole groups (worlds) with replacement and scores BOTH rankings on it, so the
 * interval is of the difference itself (the two AUCs move together with the world drawn; their
 * separate intervals overlapping says little). Resamples with one class only are skipped.
 */
export function pairedAucDifference(
  items: readonly { riskA: number; riskB: number; outcome: boolean; group: string }[],
  options: { resamples?: number; seed: string },
): AucDifference {
  const outcomes = items.map((i) => i.outcome);
  const difference =
    aucMannWhitney(
      items.map((i) => i.riskA),
      outcomes,
    ) -
    aucMannWhitney(
      items.map((i) => i.riskB),
      outcomes,
    );
  const groups = [...new Set(items.map((i) => i.group))].map((g) => items.filter((i) => i.group === g));
  const random = seededRandom(options.seed);
  const diffs: number[] = [];
  for (let r = 0; r < (options.resamples ?? 1000); r++) {
    const sample = Array.from({ length: groups.length }, () => groups[randomInt(random, groups.length)]!).flat();
    const y = sample.map((i) => i.outcome);
    if (!y.some(Boolean) || y.every(Boolean)) continue;
    diffs.push(
      aucMannWhitney(
        sample.map((i) => i.riskA),
        y,
      ) -
        aucMannWhitney(
          sample.map((i) => i.riskB),
          y,
        ),
    );
  }
  return { difference, low: quantile(diffs, 0.025), high: quantile(diffs, 0.975) };
}
