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
  if (risks.length !== positives.length)
    throw new RangeError(`risks (${risks.length}) and outcomes (${positives.length}) differ in length`);
  for (const r of risks) if (!Number.isFinite(r)) throw new RangeError(`risk must be finite, got ${r}`);
  const nPos = positives.filter(Boolean).length;
  const nNeg = positives.length - nPos;
  if (nPos === 0 || nNeg === 0) throw new RangeError(`AUC needs both outcomes: ${nPos} positive, ${nNeg} negative`);

  const order = risks.map((risk, i) => ({ risk, positive: positives[i]! })).sort((a, b) => a.risk - b.risk);
  let rankSumPos = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]!.risk === order[i]!.risk) j += 1;
    const averageRank = (i + 1 + (j + 1)) / 2; // ranks are 1-based
    for (let k = i; k <= j; k += 1) if (order[k]!.positive) rankSumPos += averageRank;
    i = j + 1;
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** The risk the calibration ranks by: a lower score is a higher risk. */
export const scoreRisk = (score: number): number => 1000 - score;
