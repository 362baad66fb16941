import { getAddress, maxUint256, type Address } from 'viem';
import type { CallResult, PlannedCall } from '@credit/chain/multicall';
import type { LendingMoveRecord, PriceAnswerRecord } from '@credit/db/market-history-reader';

/** A pool's reserve as its configuration gives it (read at the index's checkpoint: it is not history). */
export interface ReserveParams {
  asset: Address;
  decimals: number;
  priceFeed: Address;
  /** Basis points. */
  ltv: bigint;
  /** Basis points. */
  liquidationThreshold: bigint;
}

/**
 * One chain as it stood after block `block`, from the index: what the snapshot's calls would have
 * answered then. Built by `marketAt`; read by `replayCalls`.
 */
export interface MarketAt {
  block: bigint;
  /** Net arrivals of an asset (`native` or a token, lowercase) into an address's balance after the block, up to the checkpoint. */
  arrivedAfter(owner: string, asset: string): bigint;
  /** A feed's latest answer at or before the block. */
  answer(feed: string): PriceAnswerRecord | undefined;
  /** An account's supplied and borrowed units per reserve at a pool, after the block. */
  position(pool: string, owner: string): ReadonlyMap<string, { supplied: bigint; borrowed: bigint }>;
  /** The pool's reserves; undefined when they could not be read. */
  reserves(pool: string): readonly ReserveParams[] | undefined;
}

export interface MarketHistory {
  /** The balance flows of the addresses from before the first day to the checkpoint (`balanceFlowsOf`). */
  flows: readonly { address: string; asset: string; amount: bigint; blockNumber: bigint }[];
  answers: readonly PriceAnswerRecord[];
  moves: readonly LendingMoveRecord[];
  reserves: ReadonlyMap<string, readonly ReserveParams[] | undefined>;
}

const key = (...parts: string[]) => parts.map((p) => p.toLowerCase()).join(':');

/** The chain after `block` (≤ the checkpoint the history was read up to). */
export function marketAt(history: MarketHistory, block: bigint): MarketAt {
  const arrived = new Map<string, bigint>();
  for (const f of history.flows) {
    if (f.blockNumber <= block || f.asset.startsWith('collateral:')) continue;
    const k = key(f.address, f.asset);
    arrived.set(k, (arrived.get(k) ?? 0n) + f.amount);
  }
  const answers = new Map<string, PriceAnswerRecord>();
  for (const a of history.answers) {
    if (a.blockNumber > block) continue;
    const held = answers.get(a.feed);
    if (!held || a.blockNumber > held.blockNumber || (a.blockNumber === held.blockNumber && a.logIndex > held.logIndex)) {
      answers.set(a.feed, a);
    }
  }
  const positions = new Map<string, Map<string, { supplied: bigint; borrowed: bigint }>>();
  for (const m of history.moves) {
    if (m.blockNumber > block) continue;
    const k = key(m.pool, m.account);
    const byAsset = positions.get(k) ?? new Map<string, { supplied: bigint; borrowed: bigint }>();
    positions.set(k, byAsset);
    const held = byAsset.get(m.asset) ?? { supplied: 0n, borrowed: 0n };
    byAsset.set(m.asset, { supplied: held.supplied + m.supplied, borrowed: held.borrowed + m.borrowed });
  }
  return {
    block,
    arrivedAfter: (owner, asset) => arrived.get(key(owner, asset)) ?? 0n,
    answer: (feed) => answers.get(feed.toLowerCase()),
    position: (pool, owner) => positions.get(key(pool, owner)) ?? new Map(),
    reserves: (pool) => history.reserves.get(pool.toLowerCase()),
  };
}

const fail = (error: string): CallResult => ({ ok: false, error });

/** A balance at the block: the checkpoint's less what arrived after the block (never below 0: gas paid after it is not indexed). */
function balanceAt(atCheckpoint: CallResult, arrivedAfter: bigint): CallResult {
  if (!atCheckpoint.ok) return atCheckpoint;
  const value = (atCheckpoint.value as bigint) - arrivedAfter;
  return { ok: true, value: value < 0n ? 0n : value };
}

function roundAt(market: MarketAt, feed: Address): CallResult {
  const a = market.answer(feed);
  if (!a) return fail(`no answer of feed ${feed} indexed by block ${market.block}`);
  return { ok: true, value: [a.roundId, a.answer, BigInt(a.updatedAt), BigInt(a.updatedAt), a.roundId] };
}

/**
 * `getUserAccountData` as the pool computes it (LendingPool.sol, rounding down at each step), from
 * the account's positions and the feeds' answers at the block. A reserve priced ≤ 0 reverts there,
 * and fails here.
 */
export function accountDataAt(market: MarketAt, pool: Address, owner: Address): CallResult {
  const reserves = market.reserves(pool);
  if (reserves === undefined) return fail(`reserves of pool ${pool} unread`);
  const held = market.position(pool, owner);
  let collateral = 0n;
  let debt = 0n;
  let weightedLtv = 0n;
  let weightedThreshold = 0n;
  for (const r of reserves) {
    const p = held.get(r.asset.toLowerCase());
    if (!p || (p.supplied === 0n && p.borrowed === 0n)) continue;
    const a = market.answer(r.priceFeed);
    if (!a) return fail(`no answer of feed ${r.priceFeed} indexed by block ${market.block}`);
    if (a.answer <= 0n) return fail('InvalidPrice()');
    const unit = 10n ** BigInt(r.decimals);
    if (p.supplied !== 0n) {
      const value = (p.supplied * a.answer) / unit;
      collateral += value;
      weightedLtv += value * r.ltv;
      weightedThreshold += value * r.liquidationThreshold;
    }
    if (p.borrowed !== 0n) debt += (p.borrowed * a.answer) / unit;
  }
  const ltv = collateral === 0n ? 0n : weightedLtv / collateral;
  const threshold = collateral === 0n ? 0n : weightedThreshold / collateral;
  const borrowable = (collateral * ltv) / 10_000n;
  const available = borrowable > debt ? borrowable - debt : 0n;
  const healthFactor = debt === 0n ? maxUint256 : (((collateral * threshold) / 10_000n) * 10n ** 18n) / debt;
  return { ok: true, value: [collateral, debt, available, threshold, ltv, healthFactor] };
}

/**
 * What each of a wallet snapshot's calls would have answered after `market.block`, given what it
 * answered at the checkpoint: balances moved back by the flows since, feeds' latest answers then,
 * positions summed from the lending moves up to then. Decoded by the snapshot plan itself, so a
 * past snapshot is read exactly as a present one.
 */
export function replayCalls(calls: readonly PlannedCall[], atCheckpoint: readonly CallResult[], market: MarketAt): CallResult[] {
  return calls.map((call, i) => {
    const now = atCheckpoint[i]!;
    const arg = call.args?.[0] === undefined ? undefined : getAddress(String(call.args[0]));
    switch (call.functionName) {
      case 'getEthBalance':
        return balanceAt(now, market.arrivedAfter(arg!, 'native'));
      case 'balanceOf':
        return balanceAt(now, market.arrivedAfter(arg!, call.address));
      case 'latestRoundData':
        return roundAt(market, call.address);
      case 'decimals':
        return now; // a feed's decimals are immutable
      case 'getUserAccountData':
        return accountDataAt(market, call.address, arg!);
      default:
        return fail(`${call.functionName} cannot be replayed from the index`);
    }
  });
}
