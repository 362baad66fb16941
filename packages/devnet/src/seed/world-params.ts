/**
 * The parameters of a seeded population's world: the market its borrowers live through in the
 * outcome window and the shape of their positions. Together with the seed, the anchor and the
 * population size they determine the world (`SeedOptions.world`).
 */
export interface WorldParams {
  /** Poisson intensity (per year) of downward jumps of ETH / USD and of VOLT / USD (each its own) in the outcome window. */
  jumpsPerYear: number;
  /** A jump's fractional drop of the price, drawn uniformly in [min, max]. */
  jumpDepth: readonly [number, number];
  /** Daily volatility of the log price's diffusion (no drift), for both ETH and VOLT. */
  dailyVol: number;
  /** The window's prices never go below this fraction of their start (so the cast's scripted actions keep succeeding). */
  priceFloor: number;
  /** Chance that a borrower's collateral is WETH (else VOLT). */
  wethShare: number;
  /** The open loan's share of the borrowing power at its borrowing, in basis points: [min, max]. */
  loanShare: readonly [number, number];
  /** Interest rate per year, posted every 30 days on every population loan (`LendingPool.chargeInterest`). */
  interestApr: number;
  /** Chance that a generated wallet is a holder (never borrows) rather than a borrower. */
  holderShare: number;
  /**
   * The mix of behaviours: each wallet's hidden discipline is Beta(2, 2) raised to this power, so
   * 1 is the reference mix, above 1 a population of less careful borrowers, below 1 of more careful ones.
   */
  disciplineSkew: number;
  /**
   * Borrowers liquidated once before T (on average; the less disciplined more often): their first
   * loan is left to accrue until the position falls below a health factor of 0.9, the liquidator
   * closes it, and the wallet supplies fresh collateral and carries on. 0: nobody.
   */
  scarredShare: number;
}

/** The reference world's parameters (and every seeded world's unless `SeedOptions.world` says otherwise). */
export const REFERENCE_WORLD_PARAMS: Readonly<WorldParams> = Object.freeze({
  jumpsPerYear: 4,
  jumpDepth: [0.08, 0.25] as const,
  dailyVol: 0.016,
  priceFloor: 0.45,
  wethShare: 0.7,
  loanShare: [3_500, 9_400] as const,
  interestApr: 0.06,
  holderShare: 0.2,
  disciplineSkew: 1,
  scarredShare: 0,
});

/** Days between two interest postings on a loan. */
export const INTEREST_PERIOD_DAYS = 30;

/** `REFERENCE_WORLD_PARAMS` overridden by `world`, checked. */
export function resolveWorldParams(world: Partial<WorldParams> = {}): WorldParams {
  const params: WorldParams = { ...REFERENCE_WORLD_PARAMS, ...world };
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new Error(`world parameters: ${what}`);
  };
  check(params.jumpsPerYear >= 0 && params.jumpsPerYear <= 365, 'jumpsPerYear must be in [0, 365]');
  check(
    0 <= params.jumpDepth[0] && params.jumpDepth[0] <= params.jumpDepth[1] && params.jumpDepth[1] < 1,
    'jumpDepth must be 0 ≤ min ≤ max < 1',
  );
  check(params.dailyVol >= 0 && params.dailyVol < 1, 'dailyVol must be in [0, 1)');
  // the cast's scripted actions (the healthy borrower's loan in the window) need prices above ~0.3 × start
  check(params.priceFloor >= 0.35 && params.priceFloor <= 1, 'priceFloor must be in [0.35, 1]');
  check(params.wethShare >= 0 && params.wethShare <= 1, 'wethShare must be in [0, 1]');
  check(
    Number.isInteger(params.loanShare[0]) &&
      Number.isInteger(params.loanShare[1]) &&
      100 <= params.loanShare[0] &&
      params.loanShare[0] <= params.loanShare[1] &&
      params.loanShare[1] <= 9_500,
    'loanShare must be integers 100 ≤ min ≤ max ≤ 9500 (bps)',
  );
  check(params.interestApr >= 0 && params.interestApr <= 0.5, 'interestApr must be in [0, 0.5]');
  check(params.holderShare >= 0 && params.holderShare < 1, 'holderShare must be in [0, 1)');
  check(params.disciplineSkew > 0 && params.disciplineSkew <= 5, 'disciplineSkew must be in (0, 5]');
  check(params.scarredShare >= 0 && params.scarredShare <= 0.5, 'scarredShare must be in [0, 0.5]');
  return params;
}

/**
 * The population's timeline: its history ends before the features moment T = anchor − 120 days;
 * the outcome window is (T, T + 90 days]; the window's prices are restored at T + 91 days.
 */
export const OUTCOME_WINDOW = Object.freeze({ featuresAtDaysBeforeAnchor: 120, days: 90, restoredAfterDays: 91 });
