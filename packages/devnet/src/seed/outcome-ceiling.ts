import { pricePath, priceOn, type MovingAsset, type PricePath } from './price-path';
import { Rng } from './rng';
import { healthFactorOf, reactionOf, type PositionView } from './window-policy';
import { INTEREST_PERIOD_DAYS, type WorldParams } from './world-params';

/**
 * What is knowable about a borrower at the features moment T, hidden traits included: the input
 * of the outcome ceiling. Amounts are floats (token units and USD); the debt is a stablecoin at 1 USD.
 */
export interface CeilingWallet {
  discipline: number;
  /** The price that moves its collateral (WETH: ETH). */
  asset: MovingAsset;
  /** Its collateral's price at T (USD). */
  startPrice: number;
  /** Collateral supplied (token units). */
  collateral: number;
  /** Collateral tokens in the wallet (token units). */
  collateralReserve: number;
  /** Debt at T (USD). */
  debtUsd: number;
  /** Stablecoins of the debt's kind in the wallet (USD). */
  stableReserveUsd: number;
  /** The collateral's reserve parameters, as fractions (0.8, 0.825, 0.05 for WETH). */
  ltv: number;
  liquidationThreshold: number;
  liquidationBonus: number;
  /** Window days (1 …) on which interest is posted on its loan. */
  interestDays: readonly number[];
}

export interface WindowSimulation {
  liquidations: number;
  /** The first day (1 …) it was liquidated, or null. */
  firstLiquidatedDay: number | null;
}

/** The interest posted once on a debt: `debt × apr × 30 / 365`. */
export function interestCharge(debt: number, apr: number): number {
  return (debt * apr * INTEREST_PERIOD_DAYS) / 365;
}

/**
 * One wallet through one price path, day by day as the seeding does on chain: the day's price;
 * the interest posting due that day; its reaction (`reactionOf`, with `rng`); then, below a health
 * factor of 1, a liquidation of as much as the pool's close factor allows (half the debt, all of it
 * below 0.95) with the collateral's bonus, at most once a day.
 */
export function simulateWindow(wallet: CeilingWallet, path: PricePath, params: WorldParams, rng: Rng, days: number): WindowSimulation {
  let collateral = wallet.collateral;
  let collateralReserve = wallet.collateralReserve;
  let debt = wallet.debtUsd;
  let stable = wallet.stableReserveUsd;
  let liquidations = 0;
  let firstLiquidatedDay: number | null = null;
  const interestDays = new Set(wallet.interestDays);
  for (let day = 1; day <= days; day++) {
    const price = wallet.startPrice * priceOn(path, wallet.asset, day);
    if (interestDays.has(day) && debt > 0) debt += interestCharge(debt, params.interestApr);
    const view: PositionView = {
      collateralUsd: collateral * price,
      debtUsd: debt,
      liquidationThreshold: wallet.liquidationThreshold,
      ltv: wallet.ltv,
      stableReserveUsd: stable,
      collateralReserveUsd: collateralReserve * price,
    };
    const reaction = reactionOf(wallet.discipline, healthFactorOf(view), rng, view);
    if (reaction.kind === 'repay') {
      const usd = Math.min(reaction.usd, stable, debt);
      debt -= usd;
      stable -= usd;
    } else if (reaction.kind === 'topUp') {
      const units = Math.min(reaction.usd / price, collateralReserve);
      collateral += units;
      collateralReserve -= units;
    } else if (reaction.kind === 'borrow') {
      debt += reaction.usd; // spent
    }
    const hf = healthFactorOf({ collateralUsd: collateral * price, debtUsd: debt, liquidationThreshold: wallet.liquidationThreshold });
    if (hf < 1 && collateral > 0 && debt > 0) {
      let covered = debt * (hf > 0.95 ? 0.5 : 1);
      let seized = (covered * (1 + wallet.liquidationBonus)) / price;
      if (seized > collateral) {
        seized = collateral;
        covered = (collateral * price) / (1 + wallet.liquidationBonus);
      }
      debt -= covered;
      collateral -= seized;
      liquidations += 1;
      firstLiquidatedDay ??= day;
    }
  }
  return { liquidations, firstLiquidatedDay };
}

/** Fresh price paths of the world's process (not the realised one), from their own generator. */
export function simulatedPaths(params: WorldParams, rng: Rng, count: number, days: number): PricePath[] {
  return Array.from({ length: count }, () => pricePath(params, rng, days));
}

/**
 * The outcome ceiling of a wallet: its probability of being liquidated at least once in the
 * window, estimated from what is knowable at T including its hidden traits, by Monte Carlo over
 * `paths` with the same reaction policy (`rng` drives its reactions). What a model that saw the
 * traits and knew the world's process could at best predict.
 */
export function ceilingProbability(
  wallet: CeilingWallet,
  paths: readonly PricePath[],
  params: WorldParams,
  rng: Rng,
  days: number,
): number {
  if (!(wallet.debtUsd > 0)) return 0;
  let liquidated = 0;
  for (const path of paths) if (simulateWindow(wallet, path, params, rng, days).liquidations > 0) liquidated += 1;
  return liquidated / paths.length;
}

/** A generator for a wallet's ceiling draws: `<seed>:population:ceiling:<index>`. */
export function ceilingRng(seed: string, index: number): Rng {
  return new Rng(`${seed}:population:ceiling:${index}`);
}
