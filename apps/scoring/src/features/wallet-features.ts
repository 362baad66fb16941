import { getAddress } from 'viem';
import { decimal, type Decimal } from '@credit/chain/decimal';
import type { WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord, BalanceFlowRecord, InteractionRecord, LendingEventRecord } from '@credit/db/chain-activity-types';
import { NO_IDENTITY, type IdentityEvidence } from '@credit/wallet/identity-attestations';
import { LOAN_MIN_USD_DAYS, type WalletFeatures } from '@credit/score-model/andromeda/features';
import type { LendingRecordView } from '@credit/wallet/lending-record';
import { isHeld, walletViewsOf, type WalletView } from '@credit/wallet/wallet-view';

/** Symbols counted as stablecoins in `stablecoinUsd` (upper case; matched case-insensitively). */
export const STABLECOIN_SYMBOLS: readonly string[] = ['USDC', 'DAI', 'USDT'];

const SECONDS_PER_DAY = 86_400;

export interface WalletFeaturesInput {
  /** The wallet being scored; its entries are picked out of each snapshot (case-insensitive). */
  address: string;
  /** The indexer's activity rows of the wallet, one per chain with activity (`activityAcrossChains`). */
  activity: readonly AddressActivityRecord[];
  /**
   * One snapshot per chain read (`readWalletSnapshot`, one call per chain) that holds the
   * wallet. Snapshots may carry other addresses too (a batch read); only this wallet's entries count.
   */
  snapshots: Iterable<WalletSnapshot>;
  /** The moment of scoring, unix seconds: every age and recency is measured back from it. */
  asOfSeconds: number;
  /** The wallet's identity evidence (`IdentityServiceAttestations`); none when absent. */
  attestations?: IdentityEvidence;
  /** The names it owns with the time it got each (`EnsNamesReader.heldNames`); none when absent. */
  names?: readonly { name: string; since: number }[];
  /** Its borrow, repay and liquidation events (`lendingEventsOf`); none when absent. */
  lendingEvents?: readonly LendingEventRecord[];
  /** The movements in and out of its balances over the window (`balanceFlowsOf`); none when absent. */
  balanceFlows?: readonly BalanceFlowRecord[];
  /** Its dealings with other addresses per chain (`interactionsOf`); none when absent. */
  interactions?: readonly InteractionRecord[];
}

/**
 * What `walletFeatures` had to leave out, so a caller can tell an incomplete reading from a poor
 * wallet (the model itself sees only the numbers).
 */
export interface WalletFeaturesNotes {
  /** Chains whose portfolio had an asset without a value (unread balance or a price not `ok`). */
  incompletePortfolioChains: number[];
  /** Chains where a lending pool could not be read (its collateral, debt and health are missing). */
  unreadLendingChains: number[];
  /** Chains whose snapshot did not hold the wallet at all. */
  missingSnapshotChains: number[];
  /** Chains with lending events of an asset without a fresh price (left out of the borrowing record). */
  unvaluedLendingChains: number[];
}

export interface WalletFeaturesResult {
  features: WalletFeatures;
  notes: WalletFeaturesNotes;
}

/** A decimal as a JS number (nearest double). */
export const decimalNumber = (d: Decimal): number => Number(d.value) / 10 ** d.scale;

const daysBetween = (fromSeconds: number, toSeconds: number): number => Math.max(0, (toSeconds - fromSeconds) / SECONDS_PER_DAY);

const EPOCH = new Date(0).toISOString();

/**
 * Maps one wallet's indexed activity and its current per-chain snapshots onto the model input,
 * `WalletFeatures`. Pure: no I/O, no clock (the moment is `asOfSeconds`). Field by field:
 *
 * From the activity rows (the chains read; rows of other addresses and of chains not read are ignored):
 * - `walletAgeDays`: days from the EARLIEST `firstTransaction.timestamp` over the chains to
 *   `asOfSeconds` (fractional, never negative). No activity → 0.
 * - `activeChains`: distinct chain ids among the rows (the indexer keeps a row only for an
 *   address that took part in something on that chain).
 * - `borrowedUsd` / `repaidUsd` / `repaidUsdDays` / `loansRepaid`: the chains' borrowing records
 *   (`lendingRecordOf`: principal borrowed and repaid, USD-days owed and repaid, loans repaid in
 *   full), summed; a repaid loan counts in `loansRepaid` when worth `LOAN_MIN_USD_DAYS` or more.
 * - `supplyCount` / `borrowCount` / `liquidationCount`: the `supply` / `borrow` / `liquidation`
 *   event counts summed over chains (withdrawals are not a model input); `repayCount`: the
 *   repayments the wallet made itself (`ownRepays` of the records).
 * - `daysSinceLastLiquidation`: days from the LATEST `liquidation.last` over chains to
 *   `asOfSeconds`; null when no chain recorded a liquidation. A liquidation count with no recorded
 *   time (not produced by the indexer) gives null here, which the model treats as "today".
 *
 * From the wallet's dealings with other addresses (`interactions` of the view; self-sends are none):
 * - `txCount` / `transferCount` / `counterparties`: transactions sent to another address, token
 *   transfers with another address, distinct other addresses, summed over chains.
 * - `activeMonths`: distinct UTC months with a dealing among the 12 ending with the month of
 *   `asOfSeconds`, over every chain.
 * - `daysSinceLastActivity`: days from the latest dealing (else the latest transaction of the
 *   activity rows) to `asOfSeconds`; no activity → 0.
 *
 * From the snapshots (only the wallet's own entries), every balance at its LOWEST over the last 30
 * days (`lowValueCents`, `collateralLowCents`: today's less the most that arrived since any moment
 * of the window):
 * - `totalAssetUsd`: the sum, over chains and assets, of the valued balances (native coin and
 *   tokens) whose price is FRESH (`price.status === 'ok'`). An asset whose balance could not be
 *   read or whose price is stale / non-positive / unavailable is LEFT OUT (counted as 0), so the
 *   figure is a lower bound when a portfolio is incomplete; such chains are listed in
 *   `notes.incompletePortfolioChains`. Lending collateral is not included (it is `collateralUsd`).
 * - `stablecoinUsd`: the part of `totalAssetUsd` in USDC, DAI or USDT (`STABLECOIN_SYMBOLS`).
 * - `assetCount`: distinct asset SYMBOLS with a non-zero balance and a fresh price over all chains
 *   (USDC on two chains is one asset).
 * - `collateralUsd` / `debtUsd`: the pools' collateral (at its lowest) and debt (today's; USD, from
 *   `getUserAccountData`) summed over pools and chains; an unreadable pool adds nothing
 *   (`notes.unreadLendingChains`).
 * - `healthFactor`: the LOWEST health factor over the positions with debt on every chain, each
 *   scaled by its chain's lowest collateral / today's (collateral supplied for the reading does not
 *   lift it); null when the wallet owes nothing anywhere (the pools answer max uint256 then).
 *
 * From the identity evidence, as of `asOfSeconds`:
 * - `identityAttestations`: how many identity attestations the identity service found for the
 *   address (its name-service names, passport, POAP events, social handles; `attestationStrings`).
 * - `passportScore`: the passport's score, null without one; `poapsAged`: POAPs of events at least
 *   365 days before `asOfSeconds`; `ensHeldDays`: the days its longest-held name has been its own
 *   (names got after `asOfSeconds` left out), null without one.
 *
 * USD amounts come from whole cents, so they are exact to the cent.
 */
export function walletFeaturesWithNotes(input: WalletFeaturesInput): WalletFeaturesResult {
  const wallet = getAddress(input.address);
  const views = walletViewsOf({
    addresses: [wallet],
    activity: input.activity,
    lendingEvents: input.lendingEvents ?? [],
    balanceFlows: input.balanceFlows ?? [],
    interactions: input.interactions ?? [],
    snapshots: [...input.snapshots],
    attestations: new Map([[wallet, input.attestations ?? NO_IDENTITY]]),
    names: new Map([[wallet, input.names ?? []]]),
    computedAt: EPOCH,
  });
  return featuresOfView(views.get(wallet)!, input.asOfSeconds);
}

/** The same mapping from a wallet's view (`@credit/wallet`), as cached: the score of a cached reading. */
export function featuresOfView(view: WalletView, asOf: number = view.asOfSeconds): WalletFeaturesResult {
  let firstSeen: number | null = null;
  let lastSeen: number | null = null;
  let lastDealing: number | null = null;
  let lastLiquidation: number | null = null;
  const sums = { txCount: 0, transferCount: 0, counterparties: 0, supplyCount: 0, borrowCount: 0, liquidationCount: 0 };
  const months = new Set<number>();
  let activeChains = 0;
  const notes: WalletFeaturesNotes = {
    incompletePortfolioChains: [],
    unreadLendingChains: [],
    missingSnapshotChains: [],
    unvaluedLendingChains: [],
  };

  const stablecoins = new Set(STABLECOIN_SYMBOLS.map((s) => s.toUpperCase()));
  const heldSymbols = new Set<string>();
  let totalCents = 0n;
  let stableCents = 0n;
  let collateralCents = 0n;
  let debtCents = 0n;
  let healthFactor: number | null = null;

  for (const chain of view.chains) {
    const row = chain.activity;
    if (row !== null) {
      activeChains += 1;
      firstSeen = firstSeen === null ? row.firstTransaction.timestamp : Math.min(firstSeen, row.firstTransaction.timestamp);
      lastSeen = lastSeen === null ? row.lastTransaction.timestamp : Math.max(lastSeen, row.lastTransaction.timestamp);
      sums.supplyCount += row.supply.count;
      sums.borrowCount += row.borrow.count;
      sums.liquidationCount += row.liquidation.count;
      if (row.liquidation.last !== null) lastLiquidation = Math.max(lastLiquidation ?? row.liquidation.last, row.liquidation.last);
    }

    const dealings = chain.interactions;
    if (dealings !== null) {
      sums.txCount += dealings.sentToOthers;
      sums.transferCount += dealings.transfersWithOthers;
      sums.counterparties += dealings.counterparties;
      for (const m of dealings.activeMonths) months.add(m);
      lastDealing = Math.max(lastDealing ?? dealings.lastAt, dealings.lastAt);
    }

    if (chain.assets.length === 0 && chain.positions.length === 0) notes.missingSnapshotChains.push(chain.chainId);
    let complete = true;
    for (const asset of chain.assets) {
      if (asset.valueCents === null || asset.priceStatus !== 'ok') {
        // a zero balance is worth 0 whatever the price: nothing is missing
        if (asset.amount !== '0') complete = false;
        continue;
      }
      const cents = BigInt(asset.lowValueCents ?? asset.valueCents);
      totalCents += cents;
      if (stablecoins.has(asset.symbol.toUpperCase())) stableCents += cents;
      if (isHeld(asset)) heldSymbols.add(asset.symbol.toUpperCase());
    }
    if (!complete) notes.incompletePortfolioChains.push(chain.chainId);

    let unread = false;
    const chainCollateral = chain.positions.reduce((sum, p) => sum + (p.read ? BigInt(p.collateralCents) : 0n), 0n);
    const collateralLow = BigInt(chain.collateralLowCents) < chainCollateral ? BigInt(chain.collateralLowCents) : chainCollateral;
    // the share of today's collateral that was there all through the window
    const heldShare = chainCollateral > 0n ? Number(collateralLow) / Number(chainCollateral) : 1;
    collateralCents += collateralLow;
    for (const position of chain.positions) {
      if (!position.read) {
        unread = true;
        continue;
      }
      debtCents += BigInt(position.debtCents);
      if (position.hasDebt && position.healthFactor !== null) {
        const hf = heldShare * decimalNumber(decimal(BigInt(position.healthFactor.value), position.healthFactor.scale));
        healthFactor = healthFactor === null ? hf : Math.min(healthFactor, hf);
      }
    }
    if (unread) notes.unreadLendingChains.push(chain.chainId);
    if (chain.lending.unvaluedEvents > 0) notes.unvaluedLendingChains.push(chain.chainId);
  }

  const recent = lastDealing ?? lastSeen;
  const features: WalletFeatures = {
    walletAgeDays: firstSeen === null ? 0 : daysBetween(firstSeen, asOf),
    daysSinceLastActivity: recent === null ? 0 : daysBetween(recent, asOf),
    txCount: sums.txCount,
    transferCount: sums.transferCount,
    activeChains,
    activeMonths: [...months].filter((m) => m <= monthOf(asOf) && m > monthOf(asOf) - 12).length,
    counterparties: sums.counterparties,
    totalAssetUsd: Number(totalCents) / 100,
    stablecoinUsd: Number(stableCents) / 100,
    assetCount: heldSymbols.size,
    collateralUsd: Number(collateralCents) / 100,
    debtUsd: Number(debtCents) / 100,
    healthFactor,
    supplyCount: sums.supplyCount,
    borrowCount: sums.borrowCount,
    repayCount: view.chains.reduce((n, c) => n + c.lending.ownRepays, 0),
    ...borrowingFeaturesOf(view.chains.map((c) => c.lending)),
    liquidationCount: sums.liquidationCount,
    daysSinceLastLiquidation: lastLiquidation === null ? null : daysBetween(lastLiquidation, asOf),
    ...trustFeaturesOf(view.identity, view.attestations.length, asOf),
  };
  return { features, notes };
}

/** The UTC calendar month of a moment: year × 12 + month − 1 (the index's `activeMonths`). */
export function monthOf(seconds: number): number {
  const d = new Date(seconds * 1000);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/** A POAP counts once its event is at least this old. */
const POAP_MIN_AGE_DAYS = 365;

/** The Trust factor's inputs from the identity evidence, as of `asOf`. */
export function trustFeaturesOf(
  identity: WalletView['identity'],
  attestations: number,
  asOf: number,
): Pick<WalletFeatures, 'identityAttestations' | 'passportScore' | 'ensHeldDays' | 'poapsAged'> {
  const held = identity.names.filter((n) => n.since <= asOf).map((n) => daysBetween(n.since, asOf));
  return {
    identityAttestations: attestations,
    passportScore: identity.passportScore,
    ensHeldDays: held.length === 0 ? null : Math.max(...held),
    poapsAged: identity.poapDates.filter((date) => {
      const at = Date.parse(`${date}T00:00:00Z`) / 1000;
      return Number.isFinite(at) && daysBetween(at, asOf) >= POAP_MIN_AGE_DAYS;
    }).length,
  };
}

/** The borrowing record's features from the chains' records (`lendingRecordOf`), summed over chains. */
export function borrowingFeaturesOf(
  records: readonly LendingRecordView[],
): Pick<WalletFeatures, 'borrowedUsd' | 'repaidUsd' | 'repaidUsdDays' | 'loansRepaid'> {
  const cents = (pick: (r: LendingRecordView) => string) => records.reduce((sum, r) => sum + BigInt(pick(r)), 0n);
  return {
    borrowedUsd: Number(cents((r) => r.borrowedCents)) / 100,
    repaidUsd: Number(cents((r) => r.repaidCents)) / 100,
    repaidUsdDays: records.reduce((sum, r) => sum + r.repaidUsdDays, 0),
    loansRepaid: records.reduce((n, r) => n + r.loansRepaidUsdDays.filter((usdDays) => usdDays >= LOAN_MIN_USD_DAYS).length, 0),
  };
}
