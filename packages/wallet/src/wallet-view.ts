import { getAddress, type Address } from 'viem';
import { z } from 'zod';
import type { WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type {
  AddressActivityRecord,
  BalanceFlowRecord,
  EventStats,
  InteractionRecord,
  LendingEventRecord,
} from '@credit/db/chain-activity-types';
import { centsOf, lowestBalance, windowFlows } from './balance-window';
import { NO_IDENTITY, type IdentityEvidence } from './identity-attestations';
import { EMPTY_LENDING_RECORD, LendingRecordView, lendingRecordOf } from './lending-record';

/**
 * One wallet as scoring and reports both read it: per chain, what the indexer recorded (counts,
 * first and last transaction, lending events) and what the chain holds now (balances with their
 * USD values, lending positions), read at one block; and its identity attestations. Plain JSON (amounts as integer strings), so
 * it is cached as it is: one cache entry per address serves the score and every report.
 */

const IntegerText = z.string().regex(/^\d+$/);
const Seconds = z.number().int().nonnegative();

const TxAt = z.object({ timestamp: Seconds, blockNumber: z.number().int().nonnegative() });

const EventsAt = z.object({ count: z.number().int().nonnegative(), first: Seconds.nullable(), last: Seconds.nullable() });
export type EventsAt = z.infer<typeof EventsAt>;

export const ChainActivityView = z.object({
  /** The first and last transaction the address took part in on the chain. */
  firstTransaction: TxAt,
  lastTransaction: TxAt,
  /** Transactions sent by the address. */
  transactionCount: z.number().int().nonnegative(),
  /** ERC-20 transfers in or out. */
  transferCount: z.number().int().nonnegative(),
  supply: EventsAt,
  withdraw: EventsAt,
  borrow: EventsAt,
  repay: EventsAt,
  liquidation: EventsAt,
});
export type ChainActivityView = z.infer<typeof ChainActivityView>;

export const PRICE_STATUSES = ['ok', 'stale', 'non_positive', 'unavailable'] as const;

export const AssetView = z.object({
  symbol: z.string(),
  name: z.string(),
  /** Base units; null when the balance could not be read. */
  amount: IntegerText.nullable(),
  priceStatus: z.enum(PRICE_STATUSES),
  /** balance × price in whole cents; null when unknown (balance unread, or a held asset without a usable price). */
  valueCents: IntegerText.nullable(),
  /**
   * The value of the lowest balance held over the last `BALANCE_WINDOW_DAYS` (today's balance less
   * the most that arrived, net, after any moment of the window), at today's price; null when
   * `valueCents` is.
   */
  lowValueCents: IntegerText.nullable(),
});
export type AssetView = z.infer<typeof AssetView>;

export const PositionView = z.object({
  pool: z.string(),
  /** False when the pool could not be read: collateral, debt and health are then unknown. */
  read: z.boolean(),
  collateralCents: IntegerText,
  debtCents: IntegerText,
  /** The pool's health factor, exact (`value / 10^scale`); null without debt or when unread. */
  healthFactor: z.object({ value: IntegerText, scale: z.number().int().nonnegative() }).nullable(),
  hasDebt: z.boolean(),
});
export type PositionView = z.infer<typeof PositionView>;

export const ChainView = z.object({
  chainId: z.number().int().positive(),
  chainName: z.string(),
  /** The block the chain's state was read at. */
  block: z.number().int().nonnegative(),
  blockTimestamp: Seconds,
  /** Null when the indexer has no record of the address on this chain. */
  activity: ChainActivityView.nullable(),
  /** The chain's assets in configuration order (native coin first); empty when the snapshot lacked the address. */
  assets: z.array(AssetView),
  /** One per configured lending pool. */
  positions: z.array(PositionView),
  /** The borrowing record of the wallet's lending events on the chain, valued now (`lendingRecordOf`). */
  lending: LendingRecordView,
  /** The collateral (every pool read) at its lowest over the window, at today's prices: today's less the most supplied since any moment of it. */
  collateralLowCents: IntegerText,
  /** Its dealings with other addresses (self-sends left out); null when it has none. */
  interactions: z
    .object({
      sentToOthers: z.number().int().nonnegative(),
      transfersWithOthers: z.number().int().nonnegative(),
      counterparties: z.number().int().nonnegative(),
      /** UTC calendar months (year × 12 + month − 1) with a dealing, ascending. */
      activeMonths: z.array(z.number().int().nonnegative()),
      lastAt: Seconds,
    })
    .nullable(),
});
export type ChainView = z.infer<typeof ChainView>;

export const WalletView = z.object({
  address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  /** ISO 8601, wall clock: when the wallet was read (a score's and a report's `timestamp`). */
  computedAt: z.iso.datetime({ offset: false }),
  /** Unix seconds: the newest head among the chains read, the moment the view describes. */
  asOfSeconds: Seconds,
  /** Every chain read, in registry order. */
  chains: z.array(ChainView),
  /**
   * The address's identity attestations as the identity service answered them with every source
   * (`attestationStrings`: `ens:<name>`, `passport`, `poap:<event>`, `<network>:<handle>`): the
   * model's Trust factor and the reports' attestation list.
   */
  attestations: z.array(z.string()),
  /**
   * What the Trust factor weighs, each with its date: the passport's score (null without one), each
   * POAP's event date, and the names the address owns (the name index) with the time it got each.
   */
  identity: z.object({
    passportScore: z.number().min(0).max(100).nullable(),
    poapDates: z.array(z.string()),
    names: z.array(z.object({ name: z.string(), since: Seconds })),
  }),
});
export type WalletView = z.infer<typeof WalletView>;

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);
const secondsOrNull = (date: Date | null): number | null => (date === null ? null : seconds(date));
const eventsAt = (stats: EventStats): EventsAt => ({
  count: stats.count,
  first: secondsOrNull(stats.first),
  last: secondsOrNull(stats.last),
});

function activityView(row: AddressActivityRecord): ChainActivityView {
  return {
    firstTransaction: { timestamp: seconds(row.firstTransaction.timestamp), blockNumber: Number(row.firstTransaction.blockNumber) },
    lastTransaction: { timestamp: seconds(row.lastTransaction.timestamp), blockNumber: Number(row.lastTransaction.blockNumber) },
    transactionCount: row.transactionCount,
    transferCount: row.transferCount,
    supply: eventsAt(row.supply),
    withdraw: eventsAt(row.withdraw),
    borrow: eventsAt(row.borrow),
    repay: eventsAt(row.repay),
    liquidation: eventsAt(row.liquidation),
  };
}

interface ChainHistory {
  row?: AddressActivityRecord;
  events?: LendingEventRecord[];
  flows?: BalanceFlowRecord[];
  interactions?: InteractionRecord;
}

type AddressPortfolio = WalletSnapshot['portfolio']['addresses'][number];
type AddressPositions = WalletSnapshot['lending']['addresses'][number];

/** A chain's snapshot with its addresses' entries found by checksummed address. */
interface IndexedSnapshot {
  snapshot: WalletSnapshot;
  portfolios: Map<Address, AddressPortfolio>;
  positions: Map<Address, AddressPositions>;
}

/** Each entry checksummed once per snapshot (a batch of n wallets would otherwise compare n² times); the first entry of an address wins. */
function indexSnapshot(snapshot: WalletSnapshot): IndexedSnapshot {
  const byAddress = <T extends { address: string }>(entries: readonly T[]): Map<Address, T> => {
    const found = new Map<Address, T>();
    for (const entry of entries) {
      const address = getAddress(entry.address);
      if (!found.has(address)) found.set(address, entry);
    }
    return found;
  };
  return { snapshot, portfolios: byAddress(snapshot.portfolio.addresses), positions: byAddress(snapshot.lending.addresses) };
}

function chainView(wallet: Address, indexed: IndexedSnapshot, history: ChainHistory): ChainView {
  const { snapshot } = indexed;
  const { row, events, interactions } = history;
  const portfolio = indexed.portfolios.get(wallet);
  const lending = indexed.positions.get(wallet);
  const asOf = Number(snapshot.block.timestamp);
  const flows = windowFlows(history.flows ?? [], asOf);
  const amountsOf = (asset: string) => flows.filter((f) => f.asset === asset).map((f) => f.amount);
  const byToken = new Map(snapshot.portfolio.prices.filter((p) => p.asset.token !== null).map((p) => [p.asset.token!.toLowerCase(), p]));
  // collateral moves of every reserve in chain order, in cents at today's prices
  const collateralMoves = flows
    .filter((f) => f.asset.startsWith('collateral:'))
    .map((f) => centsOf(f.amount, byToken.get(f.asset.slice('collateral:'.length))));
  const positions = (lending?.positions ?? []).filter((p) => p.data !== null);
  const collateralCents = positions.reduce((sum, p) => sum + (p.collateral?.cents ?? 0n), 0n);
  return {
    chainId: snapshot.chainId,
    chainName: snapshot.portfolio.chainName,
    block: Number(snapshot.block.number),
    blockTimestamp: Number(snapshot.block.timestamp),
    activity: row ? activityView(row) : null,
    assets: (portfolio?.assets ?? []).map((a) => {
      const low = a.amount === null ? null : lowestBalance(a.amount, amountsOf(a.asset.token ? a.asset.token.toLowerCase() : 'native'));
      return {
        symbol: a.asset.symbol,
        name: a.asset.name,
        amount: a.amount === null ? null : a.amount.toString(),
        priceStatus: a.price.status,
        valueCents: a.value === null ? null : a.value.cents.toString(),
        lowValueCents: a.value === null || low === null ? null : a.amount! === 0n ? '0' : ((a.value.cents * low) / a.amount!).toString(),
      };
    }),
    positions: (lending?.positions ?? []).map((p) => ({
      pool: p.pool.name,
      read: p.data !== null,
      collateralCents: (p.collateral?.cents ?? 0n).toString(),
      debtCents: (p.debt?.cents ?? 0n).toString(),
      healthFactor: p.hasDebt && p.healthFactor !== null ? { value: p.healthFactor.value.toString(), scale: p.healthFactor.scale } : null,
      hasDebt: p.hasDebt,
    })),
    lending: events === undefined ? EMPTY_LENDING_RECORD : lendingRecordOf(events, snapshot.portfolio.prices),
    collateralLowCents: lowestBalance(collateralCents, collateralMoves).toString(),
    interactions:
      interactions === undefined
        ? null
        : {
            sentToOthers: interactions.sentToOthers,
            transfersWithOthers: interactions.transfersWithOthers,
            counterparties: interactions.counterparties,
            activeMonths: interactions.activeMonths,
            lastAt: interactions.lastAt,
          },
  };
}

/** The moment a set of chain snapshots describes: the newest head among them, unix seconds. */
export function asOfSecondsOf(snapshots: Iterable<WalletSnapshot>): number {
  return Math.max(...[...snapshots].map((s) => Number(s.block.timestamp)));
}

/**
 * The views of `addresses` from one reading: the indexer's activity rows of those addresses (any
 * order, any chain) and one snapshot per chain read (holding them all). Pure.
 */
export function walletViewsOf(input: {
  addresses: readonly Address[];
  activity: readonly AddressActivityRecord[];
  /** Their borrow, repay and liquidation events (any order, any chain). */
  lendingEvents: readonly LendingEventRecord[];
  /** The movements in and out of their balances over the window: the index's and the unindexed blocks' (any order). */
  balanceFlows?: readonly BalanceFlowRecord[];
  /** Their dealings with other addresses, per chain. */
  interactions?: readonly InteractionRecord[];
  snapshots: readonly WalletSnapshot[];
  /** Each address's identity evidence (an address missing here has none). */
  attestations: ReadonlyMap<Address, IdentityEvidence>;
  /** The names each address owns with the time it got each (an address missing here owns none). */
  names?: ReadonlyMap<Address, readonly { name: string; since: number }[]>;
  computedAt: string;
}): Map<Address, WalletView> {
  const histories = new Map<string, ChainHistory>();
  const historyOf = (chainId: number, address: string): ChainHistory => {
    const key = `${chainId}:${getAddress(address)}`;
    const found = histories.get(key);
    if (found) return found;
    const made: ChainHistory = {};
    histories.set(key, made);
    return made;
  };
  for (const row of input.activity) historyOf(row.chainId, row.address).row = row;
  for (const e of input.lendingEvents) (historyOf(e.chainId, e.address).events ??= []).push(e);
  for (const f of input.balanceFlows ?? []) (historyOf(f.chainId, f.address).flows ??= []).push(f);
  for (const i of input.interactions ?? []) historyOf(i.chainId, i.address).interactions = i;
  const asOfSeconds = asOfSecondsOf(input.snapshots);
  const snapshots = input.snapshots.map(indexSnapshot);
  const views = new Map<Address, WalletView>();
  for (const address of input.addresses) {
    const wallet = getAddress(address);
    const identity = input.attestations.get(wallet) ?? NO_IDENTITY;
    views.set(wallet, {
      address: wallet,
      computedAt: input.computedAt,
      asOfSeconds,
      chains: snapshots.map((s) => chainView(wallet, s, histories.get(`${s.snapshot.chainId}:${wallet}`) ?? {})),
      attestations: [...identity.attestations],
      identity: {
        passportScore: identity.passportScore,
        poapDates: [...identity.poapDates],
        names: [...(input.names?.get(wallet) ?? [])],
      },
    });
  }
  return views;
}

/** A held balance: read, and not zero. */
export const isHeld = (asset: AssetView): boolean => asset.amount !== null && asset.amount !== '0';

/**
 * Whether the wallet has anything to report or score: indexed history on some chain, a valued
 * balance, or a lending position (the model's `hasActivity` on the same data).
 */
export function hasAnyActivity(view: WalletView): boolean {
  return view.chains.some(
    (c) =>
      c.activity !== null ||
      c.assets.some((a) => a.valueCents !== null && a.priceStatus === 'ok' && BigInt(a.valueCents) > 0n) ||
      c.positions.some((p) => p.read && BigInt(p.collateralCents) > 0n),
  );
}
