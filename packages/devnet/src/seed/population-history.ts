import { maxUint256, parseEther, type LocalAccount } from 'viem';
import type { ChainScript } from './chain-script';
import type { PopulationEntry } from './population-entry';
import type { WindowBorrower } from './population-positions';
import { interestOn, windowDayOf } from './population-window';
import { Rng } from './rng';
import type { SeedActors } from './seed-accounts';
import { DAY } from './time';
import { INTEREST_PERIOD_DAYS, OUTCOME_WINDOW, type WorldParams } from './world-params';

/** Beta(2, 2): the median of three uniforms. */
const beta22 = (rng: Rng) => {
  const u = [rng.next(), rng.next(), rng.next()].sort((a, b) => a - b);
  return u[1]!;
};

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** What every wallet's history is drawn against: the population's generator, its wallets and their start times, the timeline's moments. */
export interface HistoryPlan {
  scripts: readonly ChainScript[];
  seed: string;
  /** The population's draws (`<seed>:population`), shared by all wallets in order. */
  rng: Rng;
  wallets: readonly LocalAccount[];
  /** Each wallet's first funding. */
  starts: readonly number[];
  featuresAt: number;
  windowEnd: number;
  /** The population's history ends by here (no population action in [T − 1 h, T]). */
  historyEnd: number;
  aprPpm: bigint;
  params: WorldParams;
  actors: SeedActors;
  /** The cast's ETH dip on the first chain (`castEthDip`): a scarred borrower's loan is kept clear of it. */
  castDip: { from: number; to: number };
}

/**
 * Draws wallet `i`'s profile (holder or borrower, its hidden discipline) and schedules its history
 * before T: its funding, transfers to wallets it knows, and for a borrower its collateral and
 * reserves, its past loans (interest posted, repaid in full) and the loan open at T. Returns its
 * entry and, for a borrower, how the window plays it.
 */
export function scheduleWalletHistory(
  plan: HistoryPlan,
  who: LocalAccount,
  i: number,
): { entry: PopulationEntry; borrower?: WindowBorrower } {
  const { scripts, seed, rng, wallets, starts, featuresAt, windowEnd, historyEnd, aprPpm, params, actors } = plan;
  const script = scripts[i % scripts.length]!;
  const start = starts[i]!;
  const kind = rng.chance(params.holderShare) ? 'holder' : 'borrower';
  const discipline = beta22(rng) ** params.disciplineSkew;
  const entry: PopulationEntry = {
    address: who.address,
    chainId: script.id,
    firstActivity: start,
    kind,
    transfers: 0,
    loansRepaid: 0,
    collateral: null,
    openLoan: null,
    traits: { discipline: Number(discipline.toFixed(6)) },
    outcome: {
      shockAt: featuresAt,
      featuresAt,
      windowEnd,
      liquidated: false,
      liquidations: 0,
      firstLiquidatedAt: null,
      healthFactorAtT: null,
      ceilingProbability: 0,
      ceilingWallet: null,
      reactions: { repays: 0, topUps: 0, borrows: 0 },
    },
  };
  const fundEth = parseEther(String(rng.int(1, 5)));
  // transfers between its start and two days before T: more for the disciplined, with noise
  const transfers = rng.int(0, 2) + Math.round(6 * discipline * rng.next());
  const lastDay = Math.max(1, Math.floor((featuresAt - 2 * DAY - start) / DAY));
  for (let k = 0; k < transfers; k++) {
    const t = start + rng.int(1, lastDay) * DAY;
    // to a wallet of the same chain that already exists then (nobody hears of a wallet before its first funding)
    const known = wallets.filter((_, j) => j % scripts.length === i % scripts.length && j !== i && starts[j]! + DAY < t);
    const to = known.length > 0 ? rng.pick(known).address : actors.lp.address;
    const value = parseEther('0.01') * BigInt(rng.int(1, 10));
    script.timeline.at(t, () => script.writer.send(who, t, { to, value, gas: 21_000n }, 'transfer'));
  }
  entry.transfers = transfers;
  const fund = () => script.writer.send(actors.deployer, start, { to: who.address, value: fundEth, gas: 21_000n }, 'fund');
  if (kind === 'holder') {
    script.timeline.at(start, async () => {
      await fund();
      entry.firstActivity = script.writer.timestamp; // the block's actual time
    });
    return { entry };
  }

  const collateralSymbol = rng.chance(params.wethShare) ? 'WETH' : 'VOLT';
  const amount =
    collateralSymbol === 'WETH' ? script.unit('WETH', String(rng.int(1, 40))) : script.unit('VOLT', String(rng.int(1_000, 50_000)));
  const debtSymbol = rng.chance(0.5) ? 'DAI' : 'USDC';
  const debtUnit = 10n ** BigInt(script.contracts.tokens[debtSymbol]!.decimals);
  // a collateral reserve kept in the wallet: larger for the disciplined, with noise
  const collateralReserve = (amount * BigInt(Math.round((discipline * rng.uniform(0, 0.6) + rng.uniform(0, 0.05)) * 10_000))) / 10_000n;
  entry.collateral = { symbol: collateralSymbol, amount: amount.toString() };

  const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === collateralSymbol)!;
  const collateralUsd8 = (amount * script.prices[collateralSymbol]!) / 10n ** BigInt(script.contracts.tokens[collateralSymbol]!.decimals);
  const power8 = (collateralUsd8 * BigInt(reserve.ltvBps)) / 10_000n;
  const borrowAmount = (shareBps: number) => (power8 * BigInt(shareBps) * debtUnit) / (10_000n * script.prices[debtSymbol]!);

  // the open loan's plan: its time and its share of the borrowing power (lower for the disciplined, with noise)
  const finalLoanAt = historyEnd - rng.int(10, 150) * DAY - rng.int(0, DAY / 2);
  const hasOpenLoan = rng.chance(0.8);
  const [minShare, maxShare] = params.loanShare;
  // (one in seven draws it regardless of discipline: circumstances)
  const [circumstance, noise, free] = [rng.next(), rng.next(), rng.next()];
  const shareDraw = circumstance < 1 / 7 ? free : clamp01(0.55 * (1 - discipline) + 0.45 * noise);
  const shareBps = Math.round(minShare + shareDraw * (maxShare - minShare));
  // a stablecoin reserve: a share of the loan (or of 30 % of the power) growing with discipline, with noise
  const reserveShare = discipline ** 1.3 * rng.uniform(0.2, 0.9) + rng.uniform(0, 0.08);
  const stableReserve = (borrowAmount(hasOpenLoan ? shareBps : 3_000) * BigInt(Math.round(reserveShare * 10_000))) / 10_000n;

  // past loans, each held for weeks, charged interest every 30 days and once more just before
  // it is repaid in full: more, longer and larger for the disciplined, with noise
  let t = start + DAY;
  let lastRepaidAt = start;
  let interestPaid = 0n;
  // (drawn only in worlds with scarred borrowers, so that the other worlds' draws stay as they were)
  if (params.scarredShare > 0 && rng.chance(Math.min(1, 2 * params.scarredShare * (1 - discipline)))) {
    const end = scheduleLiquidatedLoan(plan, who, t, rng.int(10, 60) * DAY, { collateralSymbol, debtSymbol, power8 }, finalLoanAt);
    if (end !== null) {
      entry.liquidatedBeforeT = true;
      t = end + rng.int(5, 60) * DAY;
      lastRepaidAt = end;
    }
  }
  const loans = Math.min(6, Math.floor(rng.next() * 1.5 + 4.5 * discipline * rng.uniform(0.4, 1.6)));
  for (let k = 0; k < loans; k++) {
    const duration = (rng.int(10, 30) + Math.round(35 * discipline * rng.next())) * DAY;
    const loanShareBps = rng.int(1_500, 3_000 + Math.round(3_000 * discipline));
    const gap = rng.int(5, 120) * DAY;
    if (t + duration + 2 * DAY >= finalLoanAt) break;
    const principal = borrowAmount(loanShareBps);
    script.borrow(t, who, debtSymbol, principal);
    let debt = principal;
    let charged = t;
    for (let at = t + INTEREST_PERIOD_DAYS * DAY; at < t + duration - DAY; at += INTEREST_PERIOD_DAYS * DAY) {
      const interest = interestOn(debt, INTEREST_PERIOD_DAYS * DAY, aprPpm);
      if (interest > 0n) script.chargeInterest(at, who.address, debtSymbol, interest);
      debt += interest;
      charged = at;
    }
    const repayAt = t + duration;
    const last = interestOn(debt, repayAt - charged, aprPpm);
    debt += last;
    interestPaid += debt - principal;
    // the last posting a minute before the repayment of everything owed, in a block of its own:
    // a repayment's block holds the repayment alone (the model card replays each one)
    if (last > 0n) script.chargeInterest(repayAt - 60, who.address, debtSymbol, last);
    script.poolCall(repayAt, who, 'repay', [script.addr(debtSymbol), maxUint256, 2n, who.address]);
    lastRepaidAt = repayAt;
    entry.loansRepaid += 1;
    t += duration + gap;
  }
  // its funding, its collateral and reserves (the stablecoins also cover the past loans' interest), then its approvals and supply
  script.block(start, async () => {
    await fund();
    await script.mintNow(start, collateralSymbol, who.address, amount + collateralReserve);
    await script.mintNow(start, debtSymbol, who.address, interestPaid + stableReserve + 1n);
  });
  script.timeline.at(start, async () => {
    entry.firstActivity = script.writer.timestamp; // the funding block's actual time
  });
  script.block(start + 1800, async () => {
    await script.approvePoolNow(start + 1800, who, collateralSymbol);
    await script.approvePoolNow(start + 1800, who, debtSymbol);
    await script.poolCallNow(start + 1800, who, 'supply', [script.addr(collateralSymbol), amount, who.address, 0]);
  });

  // the loan open at T, its proceeds spent in the same block, its interest posted every 30 days
  const borrower: WindowBorrower = {
    index: i,
    entry,
    who,
    collateralSymbol,
    debtSymbol,
    interestDays: [],
    rng: new Rng(`${seed}:population:window:${i}`),
    active: false,
  };
  if (hasOpenLoan && finalLoanAt > Math.max(start + 2 * DAY, lastRepaidAt + DAY)) {
    const loan = borrowAmount(shareBps);
    const openLoan = { symbol: debtSymbol, amount: loan.toString(), borrowedAt: finalLoanAt, shareOfBorrowingPowerBps: shareBps };
    entry.openLoan = openLoan;
    borrower.active = true;
    script.block(finalLoanAt, async () => {
      await script.poolCallNow(finalLoanAt, who, 'borrow', [script.addr(debtSymbol), loan, 2n, 0, who.address]);
      await script.transferNow(finalLoanAt, who, debtSymbol, actors.lp.address, loan);
    });
    script.timeline.at(finalLoanAt, async () => {
      openLoan.borrowedAt = script.writer.timestamp;
    });
    let debt = loan;
    for (let at = finalLoanAt + INTEREST_PERIOD_DAYS * DAY; at <= windowEnd; at += INTEREST_PERIOD_DAYS * DAY) {
      if (at < historyEnd) {
        const interest = interestOn(debt, INTEREST_PERIOD_DAYS * DAY, aprPpm);
        if (interest > 0n) script.chargeInterest(at, who.address, debtSymbol, interest);
        debt += interest;
      } else {
        const day = windowDayOf(featuresAt, at);
        if (day <= OUTCOME_WINDOW.days) borrower.interestDays.push(day);
      }
    }
  }
  return { entry, borrower };
}

/**
 * A scarred borrower's first loan: borrowed at 90 % of its borrowing power at `at` and spent, left
 * to accrue (one interest posting `duration` later) until the position stands at a health factor
 * of 0.9, then closed by the liquidator (the pool's close factor is 100 % below 0.95), after which
 * the wallet buys the seized collateral back and supplies it, so its position is whole again.
 * Returns when it ended, or null when it would not end a day before the open loan (not scheduled).
 */
function scheduleLiquidatedLoan(
  plan: HistoryPlan,
  who: LocalAccount,
  requestedAt: number,
  duration: number,
  position: { collateralSymbol: string; debtSymbol: string; power8: bigint },
  before: number,
): number | null {
  const script = plan.scripts[plan.wallets.indexOf(who) % plan.scripts.length]!;
  const { collateralSymbol, debtSymbol, power8 } = position;
  const dipped = script === plan.scripts[0] && collateralSymbol === 'WETH';
  const at = dipped ? clearOfDip(requestedAt, duration, plan.castDip) : requestedAt;
  const liquidatedAt = at + duration;
  if (liquidatedAt + 2 * DAY >= before) return null;
  const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === collateralSymbol)!;
  const debtDecimals = BigInt(script.contracts.tokens[debtSymbol]!.decimals);
  const collateralDecimals = BigInt(script.contracts.tokens[collateralSymbol]!.decimals);
  const principal = (power8 * 9_000n * 10n ** debtDecimals) / (10_000n * script.prices[debtSymbol]!);
  // health factor = threshold / (ltv × 0.9 × growth): the debt grows (in bps) until it is 0.9
  const growthBps = (BigInt(reserve.liquidationThresholdBps) * 10n ** 12n) / (BigInt(reserve.ltvBps) * 9_000n * 9_000n);
  const debt = (principal * growthBps) / 10_000n;
  // what the liquidator seizes for the whole debt (the pool's formula), bought back afterwards
  const seized =
    (debt * script.prices[debtSymbol]! * 10n ** collateralDecimals * BigInt(10_000 + reserve.liquidationBonusBps)) /
    (script.prices[collateralSymbol]! * 10n ** debtDecimals * 10_000n);
  script.block(at, async () => {
    await script.poolCallNow(at, who, 'borrow', [script.addr(debtSymbol), principal, 2n, 0, who.address]);
    await script.transferNow(at, who, debtSymbol, plan.actors.lp.address, principal);
  });
  script.chargeInterest(liquidatedAt - 60, who.address, debtSymbol, debt - principal);
  script.poolCall(liquidatedAt, plan.actors.liquidator, 'liquidationCall', [
    script.addr(collateralSymbol),
    script.addr(debtSymbol),
    who.address,
    maxUint256,
    false,
  ]);
  script.block(liquidatedAt + DAY, async () => {
    await script.mintNow(liquidatedAt + DAY, collateralSymbol, who.address, seized + 1n);
    await script.poolCallNow(liquidatedAt + DAY, who, 'supply', [script.addr(collateralSymbol), seized + 1n, who.address, 0]);
  });
  return liquidatedAt + DAY;
}

/**
 * When a scarred loan on the cast's first chain, WETH-backed, starts: as asked, unless its loan,
 * its liquidation or the day after overlap the cast's ETH dip (a day of ETH at 2,400) or the day
 * on each side of it; then a day after the dip. A loan at 90 % of the borrowing power is refused
 * in the dip, and a liquidation in it cannot clear the debt (the wallet would owe a remainder its
 * later repayments cannot cover).
 */
export function clearOfDip(at: number, duration: number, dip: { from: number; to: number }): number {
  return at < dip.to + DAY && at + duration + DAY > dip.from - DAY ? dip.to + DAY : at;
}
