import { DomainError } from '@credit/contracts/errors';
import { isHeld, type ChainView } from '@credit/wallet/wallet-view';

/** A held balance and its value in whole cents. */
export interface BalanceFigure {
  symbol: string;
  name: string;
  cents: bigint;
}

/** A transaction as reports show it (docs/API.md §2.3): Unix seconds, block, chain. */
export interface TxFigure {
  timestamp: number;
  blockNumber: number;
  chainId: number;
}

/**
 * What a report says about one address (or several, summed) on one chain, in whole cents and
 * counts. Every money figure of every report is a sum of these cents, so the figures agree to the
 * cent wherever they appear (a chain's balances and its `current_balance_usd`, the chains and
 * `total_asset_usd`, `/total/usd` and `/total/usd/aggregate`).
 */
export interface ChainFigures {
  chainId: number;
  chainName: string;
  /** Held balances (non-zero), in the chain's asset order; merged over addresses, one per asset. */
  balances: BalanceFigure[];
  /** How many balances are held (merged over addresses: summed, so two holders of USDC count two). */
  balanceCount: number;
  balanceCents: bigint;
  collateralCents: bigint;
  debtCents: bigint;
  /** Pools in which the address owes something now. */
  activeLoans: number;
  /** Whether the chain has lending pools configured (its lending counts mean something). */
  hasLending: boolean;
  /** Whether the indexer has any record of the address on the chain. */
  hasPastActivity: boolean;
  transactionCount: number;
  transferCount: number;
  supplyCount: number;
  repayCount: number;
  liquidationCount: number;
  first: TxFigure | null;
  last: TxFigure | null;
}

/**
 * The figures of one chain's view. A figure the chain did not give is never replaced by a guess:
 * a held asset whose balance could not be read or that has no usable price (stale, non-positive
 * or unreadable feed), or a lending pool that could not be read, makes the report unavailable
 * (503 naming the chain and what is missing) rather than a total that silently leaves it out.
 */
export function chainFigures(view: ChainView): ChainFigures {
  const balances: BalanceFigure[] = [];
  for (const asset of view.assets) {
    if (asset.amount === null) throw incomplete(view, `the ${asset.symbol} balance could not be read`);
    if (!isHeld(asset)) continue;
    if (asset.valueCents === null || asset.priceStatus !== 'ok') {
      throw incomplete(view, `the ${asset.symbol} price feed has no usable price (${asset.priceStatus})`);
    }
    balances.push({ symbol: asset.symbol, name: asset.name, cents: BigInt(asset.valueCents) });
  }
  let collateralCents = 0n;
  let debtCents = 0n;
  let activeLoans = 0;
  for (const position of view.positions) {
    if (!position.read) throw incomplete(view, `the lending pool ${position.pool} could not be read`);
    collateralCents += BigInt(position.collateralCents);
    debtCents += BigInt(position.debtCents);
    if (position.hasDebt) activeLoans += 1;
  }
  const activity = view.activity;
  const tx = (at: { timestamp: number; blockNumber: number }): TxFigure => ({ ...at, chainId: view.chainId });
  return {
    chainId: view.chainId,
    chainName: view.chainName,
    balances,
    balanceCount: balances.length,
    balanceCents: sumCents(balances.map((b) => b.cents)),
    collateralCents,
    debtCents,
    activeLoans,
    hasLending: view.positions.length > 0,
    hasPastActivity: activity !== null,
    transactionCount: activity?.transactionCount ?? 0,
    transferCount: activity?.transferCount ?? 0,
    supplyCount: activity?.supply.count ?? 0,
    repayCount: activity?.repay.count ?? 0,
    liquidationCount: activity?.liquidation.count ?? 0,
    first: activity ? tx(activity.firstTransaction) : null,
    last: activity ? tx(activity.lastTransaction) : null,
  };
}

/**
 * The figures of one chain over several addresses: money and counts summed, balances summed per
 * asset (in first-seen order), the earliest first and the latest last transaction.
 */
export function mergeChainFigures(parts: readonly ChainFigures[]): ChainFigures {
  const [head, ...rest] = parts;
  if (!head) throw new RangeError('nothing to merge');
  const balances = new Map<string, BalanceFigure>();
  for (const b of parts.flatMap((p) => p.balances)) {
    const seen = balances.get(b.symbol);
    balances.set(b.symbol, seen ? { ...seen, cents: seen.cents + b.cents } : { ...b });
  }
  const sum = (pick: (p: ChainFigures) => number) => parts.reduce((n, p) => n + pick(p), 0);
  return {
    chainId: head.chainId,
    chainName: head.chainName,
    balances: [...balances.values()],
    balanceCount: sum((p) => p.balanceCount),
    balanceCents: sumCents(parts.map((p) => p.balanceCents)),
    collateralCents: sumCents(parts.map((p) => p.collateralCents)),
    debtCents: sumCents(parts.map((p) => p.debtCents)),
    activeLoans: sum((p) => p.activeLoans),
    hasLending: parts.some((p) => p.hasLending),
    hasPastActivity: parts.some((p) => p.hasPastActivity),
    transactionCount: sum((p) => p.transactionCount),
    transferCount: sum((p) => p.transferCount),
    supplyCount: sum((p) => p.supplyCount),
    repayCount: sum((p) => p.repayCount),
    liquidationCount: sum((p) => p.liquidationCount),
    first: rest.reduce((t, p) => earliest(t, p.first), head.first),
    last: rest.reduce((t, p) => latest(t, p.last), head.last),
  };
}

export const sumCents = (cents: Iterable<bigint>): bigint => [...cents].reduce((a, b) => a + b, 0n);

/** The earlier of two transactions (by time, then block); the first given wins a tie. */
export function earliest(a: TxFigure | null, b: TxFigure | null): TxFigure | null {
  if (a === null || b === null) return a ?? b;
  return b.timestamp < a.timestamp || (b.timestamp === a.timestamp && b.blockNumber < a.blockNumber) ? b : a;
}

/** The later of two transactions (by time, then block); the first given wins a tie. */
export function latest(a: TxFigure | null, b: TxFigure | null): TxFigure | null {
  if (a === null || b === null) return a ?? b;
  return b.timestamp > a.timestamp || (b.timestamp === a.timestamp && b.blockNumber > a.blockNumber) ? b : a;
}

function incomplete(view: ChainView, what: string): DomainError {
  return new DomainError(
    'service_unavailable',
    `Chain ${view.chainId} (${view.chainName}): ${what} at block ${view.block}; no report is made from partial data, please retry shortly`,
  );
}
