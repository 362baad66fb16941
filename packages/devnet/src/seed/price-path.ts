import type { Rng } from './rng';
import type { WorldParams } from './world-params';

/** The two collateral prices that move in the outcome window. */
export type MovingAsset = 'ETH' | 'VOLT';

/**
 * A daily path of the window's prices as multiples of their start (the price at the features
 * moment T): `eth[d - 1]` and `volt[d - 1]` hold day d's (1 … days).
 */
export interface PricePath {
  eth: number[];
  volt: number[];
}

/**
 * One path of the world's price process: per asset, independently, the log price diffuses with
 * `dailyVol` (no drift) and falls by a jump of depth in `jumpDepth` on a day with probability
 * `jumpsPerYear / 365`; the path is held at or above `priceFloor` (the log price itself, so it
 * rebounds from there). Each day draws the same number of values whatever happens, so paths of one
 * generator are independent of the parameters' effects.
 */
export function pricePath(params: WorldParams, rng: Rng, days: number): PricePath {
  const jumpChance = params.jumpsPerYear / 365;
  const floor = Math.log(params.priceFloor);
  const walk = () => {
    const out: number[] = [];
    let log = 0;
    for (let d = 0; d < days; d++) {
      const z = rng.normal();
      const jumps = rng.next() < jumpChance;
      const depth = rng.uniform(params.jumpDepth[0], params.jumpDepth[1]);
      log += params.dailyVol * z;
      if (jumps) log += Math.log(1 - depth);
      log = Math.max(log, floor);
      out.push(Math.exp(log));
    }
    return out;
  };
  const eth = walk();
  const volt = walk();
  return { eth, volt };
}

/** Day d's multiple (1-based) of an asset on a path. */
export function priceOn(path: PricePath, asset: MovingAsset, day: number): number {
  return (asset === 'ETH' ? path.eth : path.volt)[day - 1]!;
}
