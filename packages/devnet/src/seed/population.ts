import { maxUint256, parseEther, type Address, type LocalAccount } from 'viem';
import { ensAbi, ensRegisterArgs, ethLabel } from '../ens';
import type { PopulationMember, PopulationWorld } from '../state-file';
import { ENS_REGISTER_GAS } from './cast';
import { ChainScript } from './chain-script';
import { ceilingProbability, ceilingRng, simulatedPaths, type CeilingWallet } from './outcome-ceiling';
import { pricePath, type MovingAsset, type PricePath } from './price-path';
import { Rng } from './rng';
import { seededAccount, type SeedActors } from './seed-accounts';
import { DAY } from './time';
import { reactionOf, type PositionView, type Reaction } from './window-policy';
import { INTEREST_PERIOD_DAYS, OUTCOME_WINDOW, REFERENCE_WORLD_PARAMS, type WorldParams } from './world-params';

export { OUTCOME_WINDOW } from './world-params';

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
  /** Hidden traits: never on chain, only here. */
  traits: { discipline: number };
  outcome: PopulationOutcome;
  /** The `.eth` names this wallet owns (see `POPULATION_ENS_NAMES`); absent when none. */
  ens?: string[];
}

/**
 * Names registered to population wallets of the ENS chain, one group per wallet: the first wallet
 * chosen owns two names, the next two one each. The wallets are drawn from the seed
 * (`assignPopulationEns`); `PopulationEntry.ens` records who owns what.
 */
export const POPULATION_ENS_NAMES: readonly (readonly string[])[] = [['hopper.eth', 'cobol.eth'], ['noether.eth'], ['turing.eth']];

/** Monte Carlo paths per wallet of the outcome ceiling. */
export const CEILING_PATHS = 400;

/** Seconds into a window day at which its prices are set (the day's step: prices, interest, reactions, liquidations). */
const DAY_STEP_OFFSET = DAY / 2;

/** The moments of a population's timeline for an anchor. */
export function populationTimes(anchor: number): { featuresAt: number; windowEnd: number; restoredAt: number } {
  const featuresAt = anchor - OUTCOME_WINDOW.featuresAtDaysBeforeAnchor * DAY;
  return {
    featuresAt,
    windowEnd: featuresAt + OUTCOME_WINDOW.days * DAY,
    restoredAt: featuresAt + OUTCOME_WINDOW.restoredAfterDays * DAY,
  };
}

/** When window day d's step runs: T + d days − 12 h (days 1 … 90, all inside the window). */
const dayStepAt = (featuresAt: number, day: number) => featuresAt + day * DAY - DAY_STEP_OFFSET;

/** The window day whose step posts an interest due at `t` (its first step at or after `t`). */
const windowDayOf = (featuresAt: number, t: number) => Math.max(1, Math.ceil((t - featuresAt + DAY_STEP_OFFSET) / DAY));

/** Interest on `debt` for `seconds` at `aprPpm` (parts per million a year), rounded down. */
const interestOn = (debt: bigint, seconds: number, aprPpm: bigint) => (debt * aprPpm * BigInt(seconds)) / (1_000_000n * BigInt(365 * DAY));

/** Beta(2, 2): the median of three uniforms. */
const beta22 = (rng: Rng) => {
  const u = [rng.next(), rng.next(), rng.next()].sort((a, b) => a - b);
  return u[1]!;
};

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** A borrower as the window plays it. */
interface WindowBorrower {
  index: number;
  entry: PopulationEntry;
  who: LocalAccount;
  collateralSymbol: string;
  debtSymbol: string;
  /** Window days on which its loan's interest is posted. */
  interestDays: number[];
  /** Its reactions' draws: `<seed>:population:window:<index>`. */
  rng: Rng;
  /** Has debt at T (else it takes no part in the window). */
  active: boolean;
}

/** The pool's account data and the wallet's two reserves, as read on chain. */
interface OnChainPosition {
  collateralBase: bigint;
  debtBase: bigint;
  availableBase: bigint;
  thresholdBps: bigint;
  ltvBps: bigint;
  healthFactor: bigint;
  stableBalance: bigint;
  collateralBalance: bigint;
}

/**
 * Schedules `size` generated wallets (alternating over the scoring chains): a history before the
 * features moment T = anchor − 120 days shaped by each wallet's hidden discipline, then the
 * outcome window (T, T + 90 d] in which ETH / USD and VOLT / USD follow a daily path of the
 * world's process (`world`), borrowers react by `window-policy`, interest is posted, and account 9
 * liquidates every population borrower below a health factor of 1, every day. At T each
 * borrower's outcome ceiling is estimated from its state and hidden traits. The returned entries
 * are completed while the timelines play (actual block times, health factors, liquidations read
 * from the chain); `world` receives the realised prices.
 */
export function schedulePopulation(
  scripts: readonly ChainScript[],
  seed: string,
  anchor: number,
  size: number,
  actors: SeedActors,
  params: WorldParams = REFERENCE_WORLD_PARAMS,
  world?: PopulationWorld,
): PopulationEntry[] {
  const rng = new Rng(`${seed}:population`);
  const population: PopulationEntry[] = [];
  const wallets = Array.from({ length: size }, (_, i) => seededAccount(seed, `population:${i}`));
  const { featuresAt, windowEnd, restoredAt } = populationTimes(anchor);
  /** The population's history ends by here (no population action in [T − 1 h, T]). */
  const historyEnd = featuresAt - 2 * 3600;
  const aprPpm = BigInt(Math.round(params.interestApr * 1_000_000));
  const byChain = new Map<number, WindowBorrower[]>();
  const starts = wallets.map(() => featuresAt - rng.int(45, 1680) * DAY - rng.int(0, DAY - 1));

  wallets.forEach((who, i) => {
    const script = scripts[i % scripts.length]!;
    const start = starts[i]!;
    const kind = rng.chance(0.2) ? 'holder' : 'borrower';
    const discipline = beta22(rng);
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
        reactions: { repays: 0, topUps: 0, borrows: 0 },
      },
    };
    population.push(entry);
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
      return;
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
    const list = byChain.get(script.id) ?? [];
    list.push(borrower);
    byChain.set(script.id, list);
  });

  // The window's realised prices: one path of the world's process for both chains.
  const realised = pricePath(params, new Rng(`${seed}:population:prices`), OUTCOME_WINDOW.days);
  const start8 = { ETH: scripts[0]!.prices.WETH!, VOLT: scripts[0]!.prices.VOLT! };
  const price8 = (asset: MovingAsset, day: number) =>
    BigInt(Math.round(Number(start8[asset]) * (asset === 'ETH' ? realised.eth : realised.volt)[day - 1]!));
  if (world) {
    world.featuresAt = featuresAt;
    world.windowEnd = windowEnd;
    world.prices = Array.from({ length: OUTCOME_WINDOW.days }, (_, k) => ({
      at: dayStepAt(featuresAt, k + 1),
      ethUsd8: price8('ETH', k + 1).toString(),
      voltUsd8: price8('VOLT', k + 1).toString(),
    }));
  }
  // The ceiling's paths: fresh draws of the same process (not the realised one).
  let ceilingPaths: PricePath[] | undefined;
  const paths = () =>
    (ceilingPaths ??= simulatedPaths(params, new Rng(`${seed}:population:ceiling-paths`), CEILING_PATHS, OUTCOME_WINDOW.days));

  for (const script of scripts) {
    const borrowers = byChain.get(script.id) ?? [];
    const active = () => borrowers.filter((b) => b.active);
    let blockAtT = 0n;

    // T: every borrower's state, its health factor and its outcome ceiling.
    script.timeline.at(featuresAt, async () => {
      await script.writer.verify();
      blockAtT = await script.writer.client.getBlockNumber();
      const positions = await readPositions(script, borrowers);
      for (const [k, b] of borrowers.entries()) {
        const p = positions[k]!;
        const hasDebt = p.debtBase > 0n && p.healthFactor !== maxUint256;
        b.active = b.active && hasDebt;
        b.entry.outcome.healthFactorAtT = hasDebt ? p.healthFactor.toString() : null;
        if (!b.active) continue;
        const wallet = ceilingWallet(script, b, p);
        b.entry.outcome.ceilingProbability = ceilingProbability(wallet, paths(), params, ceilingRng(seed, b.index), OUTCOME_WINDOW.days);
      }
    });

    // The window, day by day: the day's prices and interest postings (one block), the borrowers'
    // reactions (one block), the liquidations (one block).
    for (let day = 1; day <= OUTCOME_WINDOW.days; day++) {
      const at = dayStepAt(featuresAt, day);
      script.timeline.at(at, async () => {
        const list = active();
        const due = list.filter((b) => b.interestDays.includes(day));
        const debts = (await script.readMany(
          due.map((b) => ({
            address: script.pool,
            abi: ChainScript.poolAbi(),
            functionName: 'borrowed',
            args: [b.who.address, script.addr(b.debtSymbol)],
          })),
        )) as bigint[];
        await script.writer.block(at, async () => {
          await script.setPriceNow(at, 'ETH / USD', price8('ETH', day));
          await script.setPriceNow(at, 'VOLT / USD', price8('VOLT', day));
          for (const [k, b] of due.entries()) {
            const interest = interestOn(debts[k]!, INTEREST_PERIOD_DAYS * DAY, aprPpm);
            if (interest > 0n) await script.chargeInterestNow(at, b.who.address, b.debtSymbol, interest);
          }
        });
        const positions = await readPositions(script, list);
        const reacted: number[] = [];
        await script.writer.block(at, async () => {
          for (const [k, b] of list.entries()) {
            const p = positions[k]!;
            const collateralPrice8 = price8(b.collateralSymbol === 'WETH' ? 'ETH' : 'VOLT', day);
            const view = positionView(script, b, p, collateralPrice8);
            const hf = p.healthFactor === maxUint256 ? Infinity : Number(p.healthFactor) / 1e18;
            const reaction = reactionOf(b.entry.traits.discipline, hf, b.rng, view);
            if (await react(script, b, p, reaction, at, collateralPrice8, actors)) reacted.push(k);
          }
        });
        if (reacted.length > 0) {
          const again = await readPositions(
            script,
            reacted.map((k) => list[k]!),
          );
          reacted.forEach((k, j) => (positions[k] = again[j]!));
        }
        // the liquidator: every population borrower below a health factor of 1 (with collateral left)
        await script.writer.block(at, async () => {
          for (const [k, b] of list.entries()) {
            const p = positions[k]!;
            if (p.healthFactor >= 10n ** 18n || p.collateralBase === 0n || p.debtBase === 0n) continue;
            await script.poolCallNow(at, actors.liquidator, 'liquidationCall', [
              script.addr(b.collateralSymbol),
              script.addr(b.debtSymbol),
              b.who.address,
              maxUint256,
              false,
            ]);
          }
        });
      });
    }

    // After the window: the outcomes, from the pool's LiquidationCall logs in (T, T + 90 d].
    script.timeline.at(windowEnd + 3600, async () => {
      await script.writer.verify();
      const byAddress = new Map(borrowers.map((b) => [b.who.address.toLowerCase(), b.entry]));
      const logs = await script.writer.client.getContractEvents({
        address: script.pool,
        abi: ChainScript.poolAbi(),
        eventName: 'LiquidationCall',
        fromBlock: blockAtT + 1n,
        toBlock: 'latest',
      });
      const times = new Map<bigint, number>();
      for (const log of logs) {
        const entry = byAddress.get(String((log.args as { user: Address }).user).toLowerCase());
        if (!entry) continue;
        if (!times.has(log.blockNumber!))
          times.set(log.blockNumber!, Number((await script.writer.client.getBlock({ blockNumber: log.blockNumber! })).timestamp));
        const time = times.get(log.blockNumber!)!;
        if (time <= featuresAt || time > windowEnd) continue;
        entry.outcome.liquidations += 1;
        entry.outcome.liquidated = true;
        entry.outcome.firstLiquidatedAt = Math.min(entry.outcome.firstLiquidatedAt ?? time, time);
      }
    });

    script.setPrice(restoredAt, 'ETH / USD', script.prices.WETH!);
    script.setPrice(restoredAt + 60, 'VOLT / USD', script.prices.VOLT!);
  }

  assignPopulationEns(scripts, seed, population, actors);
  return population;
}

/** The pool's account data and the wallets' reserves of many borrowers, in one multicall. */
async function readPositions(script: ChainScript, borrowers: readonly WindowBorrower[]): Promise<OnChainPosition[]> {
  const calls = borrowers.flatMap((b) => [
    { address: script.pool, abi: ChainScript.poolAbi(), functionName: 'getUserAccountData', args: [b.who.address] },
    { address: script.addr(b.debtSymbol), abi: ChainScript.tokenAbi(), functionName: 'balanceOf', args: [b.who.address] },
    { address: script.addr(b.collateralSymbol), abi: ChainScript.tokenAbi(), functionName: 'balanceOf', args: [b.who.address] },
  ]);
  const results = await script.readMany(calls);
  return borrowers.map((_, k) => {
    const data = results[3 * k] as readonly bigint[];
    return {
      collateralBase: data[0]!,
      debtBase: data[1]!,
      availableBase: data[2]!,
      thresholdBps: data[3]!,
      ltvBps: data[4]!,
      healthFactor: data[5]!,
      stableBalance: results[3 * k + 1] as bigint,
      collateralBalance: results[3 * k + 2] as bigint,
    };
  });
}

const decimalsOf = (script: ChainScript, symbol: string) => script.contracts.tokens[symbol]!.decimals;
const units = (amount: bigint, decimals: number) => Number(amount) / 10 ** decimals;

/** What the policy sees of an on-chain position (USD floats), the collateral priced at `collateralPrice8`. */
function positionView(script: ChainScript, b: WindowBorrower, p: OnChainPosition, collateralPrice8: bigint): PositionView {
  const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === b.collateralSymbol)!;
  return {
    collateralUsd: Number(p.collateralBase) / 1e8,
    debtUsd: Number(p.debtBase) / 1e8,
    liquidationThreshold: reserve.liquidationThresholdBps / 10_000,
    ltv: reserve.ltvBps / 10_000,
    stableReserveUsd: (units(p.stableBalance, decimalsOf(script, b.debtSymbol)) * Number(script.prices[b.debtSymbol]!)) / 1e8,
    collateralReserveUsd: (units(p.collateralBalance, decimalsOf(script, b.collateralSymbol)) * Number(collateralPrice8)) / 1e8,
  };
}

/** Token units (rounded down) of `usd` at a price of 8 decimals. */
const unitsOfUsd = (usd: number, price8: bigint, decimals: number) =>
  BigInt(Math.max(0, Math.floor(((usd * 1e8) / Number(price8)) * 10 ** decimals)));

/** Sends a borrower's reaction at `at`, within what its wallet and the pool allow; true when it sent something. */
async function react(
  script: ChainScript,
  b: WindowBorrower,
  p: OnChainPosition,
  reaction: Reaction,
  at: number,
  collateralPrice8: bigint,
  actors: SeedActors,
): Promise<boolean> {
  const who = b.who;
  const reactions = b.entry.outcome.reactions;
  if (reaction.kind === 'repay') {
    const wanted = unitsOfUsd(reaction.usd, script.prices[b.debtSymbol]!, decimalsOf(script, b.debtSymbol));
    const amount = wanted < p.stableBalance ? wanted : p.stableBalance;
    if (amount === 0n) return false;
    await script.poolCallNow(at, who, 'repay', [script.addr(b.debtSymbol), amount, 2n, who.address]);
    reactions.repays += 1;
    return true;
  }
  if (reaction.kind === 'topUp') {
    const wanted = unitsOfUsd(reaction.usd, collateralPrice8, decimalsOf(script, b.collateralSymbol));
    const amount = wanted < p.collateralBalance ? wanted : p.collateralBalance;
    if (amount === 0n) return false;
    await script.poolCallNow(at, who, 'supply', [script.addr(b.collateralSymbol), amount, who.address, 0]);
    reactions.topUps += 1;
    return true;
  }
  if (reaction.kind === 'borrow') {
    const decimals = decimalsOf(script, b.debtSymbol);
    const wanted = unitsOfUsd(reaction.usd, script.prices[b.debtSymbol]!, decimals);
    // within the pool's available borrows (valued rounded up on chain), with a margin
    const allowed = (p.availableBase * 999n * 10n ** BigInt(decimals)) / (1000n * script.prices[b.debtSymbol]!);
    const amount = wanted < allowed ? wanted : allowed;
    if (amount === 0n) return false;
    await script.poolCallNow(at, who, 'borrow', [script.addr(b.debtSymbol), amount, 2n, 0, who.address]);
    await script.transferNow(at, who, b.debtSymbol, actors.lp.address, amount); // spent
    reactions.borrows += 1;
    return true;
  }
  return false;
}

/** A borrower's state at T, hidden traits included, for the outcome ceiling. */
function ceilingWallet(script: ChainScript, b: WindowBorrower, p: OnChainPosition): CeilingWallet {
  const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === b.collateralSymbol)!;
  const startPrice = Number(script.prices[b.collateralSymbol]!) / 1e8;
  return {
    discipline: b.entry.traits.discipline,
    asset: b.collateralSymbol === 'WETH' ? 'ETH' : 'VOLT',
    startPrice,
    collateral: Number(p.collateralBase) / 1e8 / startPrice,
    collateralReserve: units(p.collateralBalance, decimalsOf(script, b.collateralSymbol)),
    debtUsd: Number(p.debtBase) / 1e8,
    stableReserveUsd: units(p.stableBalance, decimalsOf(script, b.debtSymbol)),
    ltv: reserve.ltvBps / 10_000,
    liquidationThreshold: reserve.liquidationThresholdBps / 10_000,
    liquidationBonus: reserve.liquidationBonusBps / 10_000,
    interestDays: b.interestDays,
  };
}

/**
 * Registers `POPULATION_ENS_NAMES` to wallets of the ENS chain drawn from the seed (a generator of
 * its own, so the rest of the population is as without it): the deployer registers each name
 * through the registrar controller, with an address record pointing at the owner, two days and an
 * hour and a half after the wallet's funding (the wallet itself sends nothing). Records the names
 * in the entries' `ens`. Fewer wallets on the ENS chain than groups: the first groups only.
 */
export function assignPopulationEns(
  scripts: readonly ChainScript[],
  seed: string,
  population: readonly PopulationEntry[],
  actors: Pick<SeedActors, 'deployer'>,
): void {
  const script = scripts.find((s) => s.contracts.ens);
  const ens = script?.contracts.ens;
  if (!script || !ens) return;
  const rng = new Rng(`${seed}:population:ens`);
  const candidates = population.filter((p) => p.chainId === script.id);
  for (const names of POPULATION_ENS_NAMES) {
    if (candidates.length === 0) break;
    const entry = candidates.splice(rng.int(0, candidates.length - 1), 1)[0]!;
    entry.ens = [...names];
    names.forEach((name, k) => {
      const t = entry.firstActivity + 2 * DAY + 5400 + k * 7 * DAY;
      script.call(
        t,
        actors.deployer,
        ens.registrarController,
        ensAbi.registrarController(),
        'register',
        ensRegisterArgs(ens, ethLabel(name), entry.address, { address: entry.address }),
        ENS_REGISTER_GAS,
      );
    });
  }
}
