import { decimal, mulDecimals, toCents } from '@credit/chain/decimal';
import type { AssetPrice } from '@credit/chain/price-reader';
import type { BalanceFlowRecord } from '@credit/db/chain-activity-types';

/**
 * The window a balance is read over: what a wallet holds counts at its LOWEST over the last 30
 * days, so money that arrived for the reading (stablecoins lent by a second wallet for the block a
 * lender reads, collateral supplied on its behalf) counts for nothing until it has stayed a month.
 */
export const BALANCE_WINDOW_DAYS = 30;

const SECONDS_PER_DAY = 86_400;

/** The flows of the window (after `asOf − BALANCE_WINDOW_DAYS`), in chain order. */
export function windowFlows<F extends Pick<BalanceFlowRecord, 'timestamp' | 'blockNumber' | 'txIndex'>>(
  flows: readonly F[],
  asOfSeconds: number,
): F[] {
  const since = asOfSeconds - BALANCE_WINDOW_DAYS * SECONDS_PER_DAY;
  return flows
    .filter((f) => f.timestamp > since)
    .sort((a, b) => (a.blockNumber === b.blockNumber ? a.txIndex - b.txIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}

/**
 * The most that arrived, net, after any moment of the window: max over k of Σ amounts[k..] (0 for
 * none). The balance at a moment is today's less what arrived since, so today's balance less this
 * is the lowest the balance stood at over the window.
 */
export function peakArrival(amounts: readonly bigint[]): bigint {
  let suffix = 0n;
  let peak = 0n;
  for (let i = amounts.length - 1; i >= 0; i--) {
    suffix += amounts[i]!;
    if (suffix > peak) peak = suffix;
  }
  return peak;
}

/** The lowest of a balance over the window: today's less the peak arrival, between 0 and today's. */
export function lowestBalance(current: bigint, amounts: readonly bigint[]): bigint {
  const low = current - peakArrival(amounts);
  return low < 0n ? 0n : low;
}

/** A signed amount of a priced token in whole cents (0 without a fresh price). */
export function centsOf(amount: bigint, price: AssetPrice | undefined): bigint {
  if (price === undefined || price.status !== 'ok' || price.usdPerUnit === null) return 0n;
  const cents = toCents(mulDecimals(decimal(amount < 0n ? -amount : amount, price.asset.decimals), price.usdPerUnit));
  return amount < 0n ? -cents : cents;
}
