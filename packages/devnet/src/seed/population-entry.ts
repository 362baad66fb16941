import type { PopulationMember } from '../state-file';
import type { CeilingWallet } from './outcome-ceiling';

export interface PopulationOutcome {
  /** The features moment T (= `featuresAt`; the name older readers use). */
  shockAt: number;
  /** T = anchor − 120 days: the population's history ends before it; features are read at the last block at or before it. */
  featuresAt: number;
  /** T + 90 days: the outcome window is (featuresAt, windowEnd]. */
  windowEnd: number;
  /** Liquidated at least once in the window, counted from the pool's LiquidationCall logs. */
  liquidated: boolean;
  /** LiquidationCall logs naming the wallet in the window. */
  liquidations: number;
  /** Block time of the first of them. */
  firstLiquidatedAt: number | null;
  /** The pool's health factor (1e18) at T; null without debt. */
  healthFactorAtT: string | null;
  /** Its probability of a liquidation in the window given everything at T, hidden traits included (`outcome-ceiling`); 0 for holders and wallets without debt. */
  ceilingProbability: number;
  /**
   * The ceiling's input: its position at T and its hidden traits, so an evaluation can estimate
   * other ceilings from them (one blind to the world's market ahead); null without debt at T.
   */
  ceilingWallet: CeilingWallet | null;
  /** What it did in the window (`window-policy`), as sent on chain. */
  reactions: { repays: number; topUps: number; borrows: number };
}

export interface PopulationEntry extends PopulationMember {
  chainId: number;
  /** Time of the wallet's first transaction (its funding). */
  firstActivity: number;
  kind: 'holder' | 'borrower';
  /** Ether transfers it sent to other wallets before T. */
  transfers: number;
  /** Loans borrowed and repaid in full (interest included) before T. */
  loansRepaid: number;
  /** The collateral it supplied at its start (token units, as a string). */
  collateral: { symbol: string; amount: string } | null;
  /** The loan open at T: its principal (token units), time, and share of the borrowing power when borrowed (interest is posted on it every 30 days). */
  openLoan: { symbol: string; amount: string; borrowedAt: number; shareOfBorrowingPowerBps: number } | null;
  /** Liquidated once before T (a scarred borrower, `WorldParams.scarredShare`); absent otherwise. */
  liquidatedBeforeT?: boolean;
  /** Hidden traits: never on chain, only here. */
  traits: { discipline: number };
  outcome: PopulationOutcome;
  /** The `.eth` names this wallet owns (see `POPULATION_ENS_NAMES`); absent when none. */
  ens?: string[];
}
