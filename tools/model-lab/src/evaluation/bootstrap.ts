import { aucMannWhitney } from '../calibration/auc';
import { quantileSorted } from './quantiles';
import { randomInt, seededRandom, type Random } from './seeded-random';

/** Options of the bootstrap: how many resamples, the PRNG seed, and the interval's coverage. */
export interface BootstrapOptions {
  /** Number of resamples drawn (default 1000); those with an empty class are skipped. */
  resamples?: number;
  /** Seed of the PRNG (`seededRandom`): the same seed gives the same interval. */
  seed: string | number;
  /** Coverage of the percentile interval (default 0.95: the 2.5th and 97.5th percentiles). */
  level?: number;
}

/** A point estimate of the AUC with its bootstrap percentile interval. */
export interface AucInterval {
  /** The AUC of the whole sample (`aucMannWhitney`; not a bootstrap mean). */
  auc: number;
  /** Lower and upper ends of the percentile interval of the resampled AUCs. */
  low: number;
  high: number;
  /** Resamples that counted (drawn minus those where positives or negatives were missing). */
  resamples: number;
}

/** One scored wallet with its outcome and the group (e.g. world) it belongs to. */
export interface GroupedOutcome {
  risk: number;
  outcome: boolean;
  group: string | number;
}

/**
 * AUC (`aucMannWhitney`: higher risk should mean a positive outcome) with a bootstrap percentile
 * interval: the wallets are resampled with replacement, n out of n (n draws of `randomInt`), for
 * each of `resamples` resamples; the AUC of each resample is computed, resamples without a
 * positive or without a negative are skipped, and the interval is the (1 − level)/2 and
 * (1 + level)/2 quantiles of the AUCs obtained.
 *
 * Throws a RangeError when the AUC of the whole sample is undefined (see `aucMannWhitney`) or when
 * no resample had both classes.
 */
export function bootstrapAuc(risks: readonly number[], outcomes: readonly boolean[], options: BootstrapOptions): AucInterval {
  const auc = aucMannWhitney(risks, outcomes);
  const n = risks.length;
  return percentileInterval(auc, risks, outcomes, options, (random, copies) => {
    for (let i = 0; i < n; i += 1) copies[randomInt(random, n)]! += 1;
  });
}

/**
 * The cluster bootstrap of the pooled AUC, for wallets that come in groups (e.g. the worlds a report
 * pools): whole groups are resampled with replacement, G out of the G groups present, and every
 * wallet of a drawn group enters the resample (a group drawn twice enters twice). Wallets of one
 * world share its market path, so they are not independent; resampling groups keeps that
 * dependence, and the interval is wider than `bootstrapAuc`'s when outcomes cluster by group.
 *
 * The point estimate is the AUC of all wallets pooled. Groups are numbered in order of first
 * appearance, so the result depends only on the items and the seed. Throws as `bootstrapAuc`.
 */
export function bootstrapAucByGroup(items: readonly GroupedOutcome[], options: BootstrapOptions): AucInterval {
  const risks = items.map((item) => item.risk);
  const outcomes = items.map((item) => item.outcome);
  const auc = aucMannWhitney(risks, outcomes);
  const groups = new Map<string | number, number[]>();
  items.forEach((item, i) => {
    const members = groups.get(item.group);
    if (members) members.push(i);
    else groups.set(item.group, [i]);
  });
  const clusters = [...groups.values()];
  return percentileInterval(auc, risks, outcomes, options, (random, copies) => {
    for (let g = 0; g < clusters.length; g += 1) for (const i of clusters[randomInt(random, clusters.length)]!) copies[i]! += 1;
  });
}

/**
 * Draws the resamples, keeps the AUCs of those with both classes, and takes their quantiles.
 *
 * A resample is held as the number of copies of each wallet (`draw` fills them in), and its AUC is
 * computed in one pass over the wallets sorted once by risk: each positive copy wins against every
 * negative copy of lower risk and half-wins against those of equal risk, out of P·N pairs. That is
 * exactly the Mann–Whitney AUC of the resample written out in full, without sorting it each time.
 */
function percentileInterval(
  auc: number,
  risks: readonly number[],
  outcomes: readonly boolean[],
  { resamples = 1000, seed, level = 0.95 }: BootstrapOptions,
  draw: (random: Random, copies: number[]) => void,
): AucInterval {
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const order = risks.map((_, i) => i).sort((a, b) => risks[a]! - risks[b]!);
  const random = seededRandom(seed);
  const copies = new Array<number>(risks.length);
  const aucs: number[] = [];
  for (let b = 0; b < resamples; b += 1) {
    copies.fill(0);
    draw(random, copies);
    let wins = 0;
    let negativesBelow = 0;
    let positives = 0;
    for (let i = 0; i < order.length;) {
      const value = risks[order[i]!]!;
      let tiedPositives = 0;
      let tiedNegatives = 0;
      for (; i < order.length && risks[order[i]!] === value; i += 1) {
        const k = order[i]!;
        if (outcomes[k]) tiedPositives += copies[k]!;
        else tiedNegatives += copies[k]!;
      }
      wins += tiedPositives * (negativesBelow + tiedNegatives / 2);
      negativesBelow += tiedNegatives;
      positives += tiedPositives;
    }
    if (positives === 0 || negativesBelow === 0) continue;
    aucs.push(wins / (positives * negativesBelow));
  }
  if (aucs.length === 0) throw new RangeError(`none of ${resamples} resamples had both outcomes`);
  aucs.sort((a, b) => a - b);
  return {
    auc,
    low: quantileSorted(aucs, (1 - level) / 2),
    high: quantileSorted(aucs, (1 + level) / 2),
    resamples: aucs.length,
  };
}
