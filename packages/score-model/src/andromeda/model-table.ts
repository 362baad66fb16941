import { SCORE_MIN } from '../score-bands';
import { FITTED_TABLE } from './fitted-table';

// andromeda_1.0: the scale, the rules that are policy rather than fit, and the fitted points
// (./fitted-table.ts, written by `pnpm model:fit`). The scoring is in ./factors.ts and ./scorecard.ts.

export const MODEL_ID = 'andromeda_1.0';

/**
 * Everything that changes a score. Score = the segment's base + Σ the points of each
 * characteristic's bin, which is the fitted log-odds on the points-to-odds scale
 * score = 600 + 30 / ln 2 × ln((1 − p) / p), p the probability of a liquidation within 90 days:
 * 600 is even odds, every 30 points doubles the odds against a liquidation. Then the two caps below.
 */
export const ANDROMEDA_1_0 = {
  scale: { evenOddsScore: 600, pointsToDoubleOdds: 30 },

  /**
   * After a liquidation the score is capped at 300 + 700 × (1 − 2^(−days / halfLifeDays)): 300 on the
   * day, 650 after a month, 956 after four. What a liquidation leaves behind (no debt, a smaller
   * position) is not evidence of health, so a liquidation never raises a score; the wallet earns
   * its standing back by time. A count with no recorded time is treated as today. (Policy: the
   * windows hold too few fresh liquidations to fit it.)
   */
  recovery: { halfLifeDays: 30 },

  /**
   * Too little history to score: younger than `minAgeDays` (its balances have not been held through
   * a window, its record has not begun). Such a wallet is held at `maxScore` at most, even odds:
   * what can be said without a record, below every wallet with a proven one. (Revision 2026-11-26
   * also held wallets with fewer than 3 recorded actions here; its held-out run showed that this
   * put old, quiet holders, which cannot be liquidated, below most borrowers.)
   */
  thin: { minAgeDays: 30, maxScore: 600 },

  /** No recorded activity at all (no age, transactions, transfers, lending, holdings): the floor. */
  emptyScore: SCORE_MIN,

  ...FITTED_TABLE,
} as const;
