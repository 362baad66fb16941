/** The wallets tied at one risk value, in a ranking by risk ascending. */
export interface TieGroup {
  risk: number;
  positives: number;
  negatives: number;
  /** The 1-based rank of the group's first wallet in the whole ranking. */
  firstRank: number;
}

export interface RiskRanking {
  nPos: number;
  nNeg: number;
  /** Distinct risk values, ascending, each with how many of either class it holds. */
  groups: TieGroup[];
}

/**
 * Ranks risks against a binary outcome for the rank statistics (AUC, KS): the distinct risk values
 * ascending, with the count of positives and negatives tied at each.
 *
 * Throws a RangeError when the lengths differ, when a risk is not finite, or when either class is
 * empty (`statistic` names the figure that is then undefined).
 */
export function rankByRisk(risks: readonly number[], positives: readonly boolean[], statistic: string): RiskRanking {
  if (risks.length !== positives.length)
    throw new RangeError(`risks (${risks.length}) and outcomes (${positives.length}) differ in length`);
  for (const r of risks) if (!Number.isFinite(r)) throw new RangeError(`risk must be finite, got ${r}`);
  const nPos = positives.filter(Boolean).length;
  const nNeg = positives.length - nPos;
  if (nPos === 0 || nNeg === 0) throw new RangeError(`${statistic} needs both outcomes: ${nPos} positive, ${nNeg} negative`);

  const order = risks.map((risk, i) => ({ risk, positive: positives[i]! })).sort((a, b) => a.risk - b.risk);
  const groups: TieGroup[] = [];
  for (let i = 0; i < order.length;) {
    const group: TieGroup = { risk: order[i]!.risk, positives: 0, negatives: 0, firstRank: i + 1 };
    for (; i < order.length && order[i]!.risk === group.risk; i += 1) {
      if (order[i]!.positive) group.positives += 1;
      else group.negatives += 1;
    }
    groups.push(group);
  }
  return { nPos, nNeg, groups };
}
