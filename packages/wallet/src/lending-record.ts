import { z } from 'zod';
import { decimal, mulDecimals, toCents, type Decimal } from '@credit/chain/decimal';
import type { AssetPrice } from '@credit/chain/price-reader';
import type { LendingEventRecord } from '@credit/db/chain-activity-types';

const SECONDS_PER_DAY = 86_400;
/** The latest loans kept per chain (a wallet with more keeps its most recent ones). */
export const MAX_LOANS_KEPT = 100;

/**
 * A wallet's borrowing record on one chain, from its lending events (borrow, repay, liquidation),
 * valued at the assets' current prices. Principal only: a repayment beyond what the events show
 * as owed (interest) counts for nothing, and neither does debt a liquidator covered.
 */
export const LendingRecordView = z.object({
  /** Principal borrowed, in cents. */
  borrowedCents: z.string().regex(/^\d+$/),
  /** Principal the wallet repaid itself, in cents. */
  repaidCents: z.string().regex(/^\d+$/),
  /**
   * Σ over the principal repaid of amount × the days it was owed, in USD-days: what a record of
   * repayment is worth, by size and by time (twelve one-dollar loops repaid in the same block are
   * worth next to nothing; $10,000 owed for 90 days and repaid, 900,000).
   */
  repaidUsdDays: z.number().nonnegative(),
  /** Each loan repaid in full (the wallet's debt of an asset back to zero by its own repayment), its USD-days; asset by asset, each asset's in chain order, at most `MAX_LOANS_KEPT`. */
  loansRepaidUsdDays: z.array(z.number().nonnegative()),
  /** Events of an asset without a fresh price: left out, so the record is a lower bound. */
  unvaluedEvents: z.number().int().nonnegative(),
  /** Repayments the wallet made itself (the repayer was the borrower); another wallet's repayments earn it nothing. */
  ownRepays: z.number().int().nonnegative(),
});
export type LendingRecordView = z.infer<typeof LendingRecordView>;

export const EMPTY_LENDING_RECORD: LendingRecordView = {
  borrowedCents: '0',
  repaidCents: '0',
  repaidUsdDays: 0,
  loansRepaidUsdDays: [],
  unvaluedEvents: 0,
  ownRepays: 0,
};

/** One asset's running account: principal outstanding and its owed amount × seconds. */
interface AssetLedger {
  borrowed: bigint;
  repaid: bigint;
  outstanding: bigint;
  /** ∫ outstanding dt since the last event was accounted (base units × seconds). */
  owedSeconds: bigint;
  /** Base units × seconds of the principal repaid. */
  repaidSeconds: bigint;
  /** The current loan's repaid base units × seconds (a loan: outstanding from zero back to zero). */
  loanSeconds: bigint;
  loans: bigint[];
  at: number;
}

/**
 * Replays one address's events of one chain (in chain order) per asset:
 * - borrow b: outstanding += b;
 * - repay r by the borrower itself: of the outstanding principal, min(r, outstanding) is repaid; it
 *   carries its share of the owed amount × time (the share repaid of ∫ outstanding dt, i.e.
 *   average-cost accounting); a repayment that brings the outstanding back to zero closes a loan;
 * - repay r by another wallet (the pool's `repayer` is not the borrower), or a liquidation (the debt
 *   covered d): min(d, outstanding) leaves the books with its share of the owed time, credited to
 *   nobody. Somebody else paying a wallet's debt is no record of the wallet paying it, and a
 *   second wallet could otherwise build one for it.
 */
function replay(events: readonly LendingEventRecord[]): Map<string, AssetLedger> {
  const ledgers = new Map<string, AssetLedger>();
  for (const e of events) {
    const l = ledgers.get(e.asset) ?? {
      borrowed: 0n,
      repaid: 0n,
      outstanding: 0n,
      owedSeconds: 0n,
      repaidSeconds: 0n,
      loanSeconds: 0n,
      loans: [],
      at: e.timestamp,
    };
    ledgers.set(e.asset, l);
    l.owedSeconds += l.outstanding * BigInt(Math.max(0, e.timestamp - l.at));
    l.at = Math.max(l.at, e.timestamp);
    if (e.kind === 'borrow') {
      l.borrowed += e.amount;
      l.outstanding += e.amount;
      continue;
    }
    const part = e.amount < l.outstanding ? e.amount : l.outstanding;
    if (part === 0n) continue;
    const share = (l.owedSeconds * part) / l.outstanding;
    l.owedSeconds -= share;
    l.outstanding -= part;
    if (isOwnRepayment(e)) {
      l.repaid += part;
      l.repaidSeconds += share;
      l.loanSeconds += share;
      if (l.outstanding === 0n) {
        l.loans.push(l.loanSeconds);
        l.loanSeconds = 0n;
      }
    } else if (l.outstanding === 0n) {
      l.loanSeconds = 0n; // a loan a liquidator closed is no repaid loan
    }
  }
  return ledgers;
}

/** A repayment the borrower made itself: the repayer recorded is the borrower (an unrecorded one is not). */
export const isOwnRepayment = (e: LendingEventRecord): boolean => e.kind === 'repay' && e.actor !== null && e.actor === e.address;

/** Base units → USD (exact decimal) at `usdPerUnit`. */
const usdOf = (units: bigint, decimals: number, usdPerUnit: Decimal): Decimal => mulDecimals(decimal(units, decimals), usdPerUnit);
const toNumber = (d: Decimal): number => Number(d.value) / 10 ** d.scale;

/**
 * The borrowing record of one address on one chain: its events (any order in, replayed in chain
 * order) valued with the chain's prices as read now (`prices` of the snapshot: an asset whose
 * price is not fresh, or that is not configured, leaves its events out).
 */
export function lendingRecordOf(events: readonly LendingEventRecord[], prices: readonly AssetPrice[]): LendingRecordView {
  if (events.length === 0) return EMPTY_LENDING_RECORD;
  const sorted = [...events].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.txIndex - b.txIndex || a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  const byToken = new Map(prices.filter((p) => p.asset.token !== null).map((p) => [p.asset.token!.toLowerCase(), p]));
  let borrowed = 0n;
  let repaid = 0n;
  let repaidUsdDays = 0;
  let unvaluedEvents = 0;
  const loans: number[] = [];
  for (const [asset, l] of replay(sorted)) {
    const price = byToken.get(asset);
    if (price === undefined || price.status !== 'ok' || price.usdPerUnit === null) {
      unvaluedEvents += sorted.filter((e) => e.asset === asset).length;
      continue;
    }
    const { decimals } = price.asset;
    const perUnit = price.usdPerUnit;
    borrowed += toCents(usdOf(l.borrowed, decimals, perUnit));
    repaid += toCents(usdOf(l.repaid, decimals, perUnit));
    repaidUsdDays += toNumber(usdOf(l.repaidSeconds, decimals, perUnit)) / SECONDS_PER_DAY;
    loans.push(...l.loans.map((s) => toNumber(usdOf(s, decimals, perUnit)) / SECONDS_PER_DAY));
  }
  return {
    borrowedCents: borrowed.toString(),
    repaidCents: repaid.toString(),
    repaidUsdDays,
    loansRepaidUsdDays: loans.slice(-MAX_LOANS_KEPT),
    unvaluedEvents,
    ownRepays: sorted.filter(isOwnRepayment).length,
  };
}
