import type { Rng } from './rng';

/**
 * How a population borrower behaves in the outcome window, checked once a day: a pure function of
 * its hidden discipline, its position and a random draw. The seeding plays it on chain; the
 * outcome ceiling (`outcome-ceiling.ts`) plays it on simulated paths.
 */

/** A borrower's position as the policy sees it (USD; fractions, not basis points). */
export interface PositionView {
  /** Collateral supplied to the pool, valued at today's price. */
  collateralUsd: number;
  /** Debt owed to the pool (a stablecoin, 1 USD). */
  debtUsd: number;
  /** The collateral's liquidation threshold and loan-to-value (e.g. 0.825 and 0.8 for WETH). */
  liquidationThreshold: number;
  ltv: number;
  /** Stablecoins of the debt's kind in the wallet (what it can repay with). */
  stableReserveUsd: number;
  /** Collateral tokens in the wallet, not supplied (what it can top up with), at today's price. */
  collateralReserveUsd: number;
}

export type Reaction =
  | { kind: 'none' }
  /** Repays `usd` of its debt from its stablecoin reserve. */
  | { kind: 'repay'; usd: number }
  /** Supplies `usd` worth of its collateral reserve. */
  | { kind: 'topUp'; usd: number }
  /** Borrows `usd` more (within its available borrows) and spends it. */
  | { kind: 'borrow'; usd: number };

/** Below this health factor a borrower considers acting: 1.1 for the least disciplined, 1.5 for the most. */
export function reactionTrigger(discipline: number): number {
  return 1.1 + 0.4 * discipline;
}

/** The chance, on a day its health factor is below the trigger, that it acts. */
export function reactionChance(discipline: number): number {
  return 0.02 + 0.9 * discipline ** 1.5;
}

/** The chance, on a calm day, that a borrower with an open loan borrows more (undisciplined ones). */
export function extraBorrowChance(discipline: number): number {
  return 0.025 * (1 - discipline) ** 2;
}

/** The position's health factor (Infinity without debt). */
export function healthFactorOf(p: Pick<PositionView, 'collateralUsd' | 'debtUsd' | 'liquidationThreshold'>): number {
  return p.debtUsd > 0 ? (p.collateralUsd * p.liquidationThreshold) / p.debtUsd : Infinity;
}

/**
 * Today's reaction of a borrower of `discipline` (in [0, 1]) whose health factor is
 * `healthFactor`. Below its trigger it acts with `reactionChance`: it aims at a health factor a
 * little above the trigger and repays from its stablecoin reserve or tops up from its collateral
 * reserve (chosen with odds in proportion to the two reserves), as far as the reserve goes.
 * Above it, an undisciplined borrower now and then borrows more (`extraBorrowChance`), nearly
 * all the pool still lends it (85–100 %), and is then near the edge. Always draws four values from `rng`.
 */
export function reactionOf(discipline: number, healthFactor: number, rng: Rng, position: PositionView): Reaction {
  const act = rng.next();
  const which = rng.next();
  const size = rng.next();
  const extra = rng.next();
  if (!(position.debtUsd > 0)) return { kind: 'none' };
  const trigger = reactionTrigger(discipline);
  if (healthFactor < trigger) {
    if (act >= reactionChance(discipline)) return { kind: 'none' };
    const target = trigger + 0.1 + 0.3 * size;
    const threshold = position.liquidationThreshold;
    const repayNeed = position.debtUsd - (position.collateralUsd * threshold) / target;
    const topUpNeed = (target * position.debtUsd) / threshold - position.collateralUsd;
    const stable = Math.max(0, position.stableReserveUsd);
    const collateral = Math.max(0, position.collateralReserveUsd);
    if (stable + collateral < 1) return { kind: 'none' };
    const repay = which < stable / (stable + collateral);
    const usd = repay ? Math.min(repayNeed, stable) : Math.min(topUpNeed, collateral);
    if (!(usd >= 1)) return { kind: 'none' };
    return repay ? { kind: 'repay', usd } : { kind: 'topUp', usd };
  }
  if (act < extraBorrowChance(discipline)) {
    const available = position.collateralUsd * position.ltv - position.debtUsd;
    const usd = available * (0.85 + 0.15 * extra);
    if (usd >= 10) return { kind: 'borrow', usd };
  }
  return { kind: 'none' };
}
