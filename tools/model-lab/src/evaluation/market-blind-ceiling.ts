import { simulateWindow, type CeilingWallet } from '@credit/devnet/seed/outcome-ceiling';
import { pricePath, type PricePath } from '@credit/devnet/seed/price-path';
import { Rng } from '@credit/devnet/seed/rng';
import { OUTCOME_WINDOW, resolveWorldParams, type WorldParams } from '@credit/devnet/seed/world-params';
import { drawParams, TRAINING_PRIOR } from './protocol';

/** Monte Carlo paths per wallet, as many as the seeding's own ceiling draws (`CEILING_PATHS`). */
export const MARKET_BLIND_PATHS = 400;

/** The market settings a path takes from its draw of the prior; every other setting is the world's. */
const MARKET_SETTINGS = ['jumpsPerYear', 'jumpDepth', 'dailyVol', 'priceFloor'] as const;

let pathsOfPrior: { market: Partial<WorldParams>; rngSeed: string }[] | undefined;

/** The prior's market draws, one per path, the same for every world (drawn once). */
function priorMarkets(): { market: Partial<WorldParams>; rngSeed: string }[] {
  pathsOfPrior ??= Array.from({ length: MARKET_BLIND_PATHS }, (_, k) => {
    const drawn = drawParams(`market-blind-ceiling:${k}`, TRAINING_PRIOR);
    const market = Object.fromEntries(MARKET_SETTINGS.map((key) => [key, drawn[key]])) as Partial<WorldParams>;
    return { market, rngSeed: `market-blind-ceiling:path:${k}` };
  });
  return pathsOfPrior;
}

/**
 * The outcome ceiling of a world's wallets when the market ahead is not known: each Monte Carlo
 * path is drawn from market settings (jumps, their depth, volatility, floor) drawn from the
 * training prior, not from the world's own process. Everything knowable at T is kept: the wallet's
 * hidden traits and position, and the world's interest rate (posted on chain). No price moves
 * before T in any world, so at T nothing on chain tells one market from another: this is the most
 * a model could predict at T, where the seeding's ceiling (`outcome.ceilingProbability`) also
 * knows the world's market in the window.
 */
export class MarketBlindCeiling {
  private readonly paths: PricePath[];
  private readonly params: WorldParams;

  constructor(worldParams: Partial<WorldParams>) {
    this.params = resolveWorldParams(worldParams);
    this.paths = priorMarkets().map(({ market, rngSeed }) =>
      pricePath({ ...this.params, ...market }, new Rng(rngSeed), OUTCOME_WINDOW.days),
    );
  }

  /** A wallet's probability of a liquidation in the window; its reactions drawn by a generator of its own (`seed`). */
  probability(wallet: CeilingWallet, seed: string): number {
    if (!(wallet.debtUsd > 0)) return 0;
    const rng = new Rng(`${seed}:market-blind-ceiling`);
    let liquidated = 0;
    for (const path of this.paths)
      if (simulateWindow(wallet, path, this.params, rng, OUTCOME_WINDOW.days).liquidations > 0) liquidated += 1;
    return liquidated / this.paths.length;
  }
}
