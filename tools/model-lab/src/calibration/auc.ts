import { rankByRisk } from './risk-ranking';

/**
 * Area under the ROC curve of a risk figure against a binary outcome, by the Mann–Whitney U
 * statistic: the probability that a randomly chosen positive (e.g. a wallet later liquidated) has
 * a HIGHER risk than a randomly chosen negative, ties counting one half.
 *
 * AUC = (R₊ − n₊(n₊ + 1)/2) / (n₊ · n₋), with R₊ the sum of the positives' ranks among all values
 * (ascending, tied values given their average rank). 1 = perfect ranking, 0.5 = no better than
 * chance, 0 = perfectly reversed.
 *
 * Throws a RangeError when the lengths differ, when a risk is not finite, or when either class is
 * empty (the AUC is undefined).
 */
export function aucMannWhitney(risks: readonly number[], positives: readonly boolean[]): number {
  const { nPos, nNeg, groups } = rankByRisk(risks, positives, 'AUC');
  let rankSumPos = 0;
  for (const g of groups) {
    const lastRank = g.firstRank + g.positives + g.negatives - 1;
    rankSumPos += g.positives * ((g.firstRank + lastRank) / 2); // tied values share their average rank
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** The risk the calibration ranks by: a lower score is a higher risk. */
export const scoreRisk = (score: number): number => 1000 - score;
