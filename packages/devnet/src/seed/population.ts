import { maxUint256, parseEther, type LocalAccount } from 'viem';
import { ensAbi, ensRegisterArgs, ethLabel } from '../ens';
import type { PopulationMember } from '../state-file';
import { ENS_REGISTER_GAS } from './cast';
import { ChainScript } from './chain-script';
import { Rng } from './rng';
import { seededAccount, type SeedActors } from './seed-accounts';
import { DAY } from './time';

export interface PopulationEntry extends PopulationMember {
  chainId: number;
  /** Time of the wallet's first transaction (its funding). */
  firstActivity: number;
  kind: 'holder' | 'borrower';
  transfers: number;
  loansRepaid: number;
  collateral: { symbol: string; amount: string } | null;
  openLoan: { symbol: string; amount: string; borrowedAt: number; shareOfBorrowingPowerBps: number } | null;
  outcome: { shockAt: number; healthFactorAfterShock: string | null; liquidated: boolean };
  /** The `.eth` names this wallet owns (see `POPULATION_ENS_NAMES`); absent when none. */
  ens?: string[];
}

/**
 * Names registered to population wallets of the ENS chain, one group per wallet: the first wallet
 * chosen owns two names, the next two one each. The wallets are drawn from the seed
 * (`assignPopulationEns`); `PopulationEntry.ens` records who owns what.
 */
export const POPULATION_ENS_NAMES: readonly (readonly string[])[] = [['hopper.eth', 'cobol.eth'], ['noether.eth'], ['turing.eth']];

/** Price moves of the simulated shock that decides the population's outcomes. */
export const POPULATION_SHOCK = { atDaysBeforeAnchor: 30, restoredAfterDays: 5, ethUsd8: 1_950n * 10n ** 8n, voltUsd8: 100_000_000n };

/**
 * Schedules `size` generated wallets (alternating over the scoring chains) and the price shock
 * after which each borrower below a health factor of 1 is liquidated. The returned entries are
 * completed while the timelines play (actual block times, health factors, liquidations).
 */
export function schedulePopulation(
  scripts: readonly ChainScript[],
  seed: string,
  anchor: number,
  size: number,
  actors: SeedActors,
): PopulationEntry[] {
  const rng = new Rng(`${seed}:population`);
  const population: PopulationEntry[] = [];
  const wallets = Array.from({ length: size }, (_, i) => seededAccount(seed, `population:${i}`));
  const shockAt = anchor - POPULATION_SHOCK.atDaysBeforeAnchor * DAY;
  const byChain = new Map<number, { entry: PopulationEntry; who: LocalAccount; debtSymbol: string; collateralSymbol: string }[]>();
  const starts = wallets.map(() => anchor - rng.int(60, 1800) * DAY - rng.int(0, DAY - 1));
  wallets.forEach((who, i) => {
    const script = scripts[i % scripts.length]!;
    const start = starts[i]!;
    const kind = rng.chance(0.2) ? 'holder' : 'borrower';
    const entry: PopulationEntry = {
      address: who.address,
      chainId: script.id,
      firstActivity: start,
      kind,
      transfers: 0,
      loansRepaid: 0,
      collateral: null,
      openLoan: null,
      outcome: { shockAt, healthFactorAfterShock: null, liquidated: false },
    };
    population.push(entry);
    const fundEth = parseEther(String(rng.int(1, 5)));
    script.timeline.at(start, async () => {
      await script.writer.send(actors.deployer, start, { to: who.address, value: fundEth, gas: 21_000n }, 'fund');
      entry.firstActivity = script.writer.timestamp; // the block's actual time
    });
    // transfers between start and shortly before the shock
    const transfers = rng.int(0, 8);
    for (let k = 0; k < transfers; k++) {
      const t = start + rng.int(1, Math.max(1, Math.floor((shockAt - 5 * DAY - start) / DAY))) * DAY;
      // to a wallet of the same chain that already exists then (nobody hears of a wallet before its first funding)
      const known = wallets.filter((_, j) => j % scripts.length === i % scripts.length && j !== i && starts[j]! + DAY < t);
      const to = known.length > 0 ? rng.pick(known).address : actors.lp.address;
      const value = parseEther('0.01') * BigInt(rng.int(1, 10));
      script.timeline.at(t, () => script.writer.send(who, t, { to, value, gas: 21_000n }, 'transfer'));
    }
    entry.transfers = transfers;
    if (kind === 'holder') return;

    const collateralSymbol = rng.chance(0.7) ? 'WETH' : 'VOLT';
    const amount =
      collateralSymbol === 'WETH' ? script.unit('WETH', String(rng.int(1, 40))) : script.unit('VOLT', String(rng.int(1_000, 50_000)));
    const debtSymbol = rng.chance(0.5) ? 'DAI' : 'USDC';
    entry.collateral = { symbol: collateralSymbol, amount: amount.toString() };
    script.mint(start + 600, collateralSymbol, who.address, amount);
    script.approvePool(start + 1200, who, collateralSymbol);
    script.approvePool(start + 1300, who, debtSymbol);
    script.supply(start + 1800, who, collateralSymbol, amount);

    const reserve = script.contracts.lendingPool!.reserves.find((r) => r.symbol === collateralSymbol)!;
    const collateralUsd8 = (amount * script.prices[collateralSymbol]!) / 10n ** BigInt(script.contracts.tokens[collateralSymbol]!.decimals);
    const power8 = (collateralUsd8 * BigInt(reserve.ltvBps)) / 10_000n;
    const borrowAmount = (shareBps: number) =>
      (power8 * BigInt(shareBps) * 10n ** BigInt(script.contracts.tokens[debtSymbol]!.decimals)) / (10_000n * script.prices[debtSymbol]!);

    // past loans, repaid, each at most 60 % of the borrowing power
    let t = start + DAY;
    const finalLoanAt = shockAt - rng.int(10, 170) * DAY;
    const loans = rng.int(0, 6);
    for (let k = 0; k < loans; k++) {
      const duration = rng.int(7, 60) * DAY;
      if (t + duration + 2 * DAY >= finalLoanAt) break;
      const loan = borrowAmount(rng.int(2_000, 6_000));
      script.borrow(t, who, debtSymbol, loan);
      script.repay(t + duration, who, debtSymbol, loan);
      entry.loansRepaid += 1;
      t += duration + rng.int(2, 90) * DAY;
    }
    // an open loan at the shock for most borrowers, at a varied share of the borrowing power
    if (rng.chance(0.75) && finalLoanAt > t) {
      const shareBps = rng.int(3_000, 9_900);
      const loan = borrowAmount(shareBps);
      const openLoan = { symbol: debtSymbol, amount: loan.toString(), borrowedAt: finalLoanAt, shareOfBorrowingPowerBps: shareBps };
      entry.openLoan = openLoan;
      script.timeline.at(finalLoanAt, async () => {
        await script.callNow(finalLoanAt, who, script.pool, ChainScript.poolAbi(), 'borrow', [
          script.addr(debtSymbol),
          loan,
          2n,
          0,
          who.address,
        ]);
        openLoan.borrowedAt = script.writer.timestamp;
      });
    }
    const list = byChain.get(script.id) ?? [];
    list.push({ entry, who, debtSymbol, collateralSymbol });
    byChain.set(script.id, list);
  });

  // The shock: ETH and VOLT fall; whoever is below a health factor of 1 is liquidated (measured).
  for (const script of scripts) {
    script.setPrice(shockAt, 'ETH / USD', POPULATION_SHOCK.ethUsd8);
    script.setPrice(shockAt + 60, 'VOLT / USD', POPULATION_SHOCK.voltUsd8);
    script.timeline.at(shockAt + 3600, async () => {
      await script.writer.verify();
      const borrowers = byChain.get(script.id) ?? [];
      const healthFactors = await script.healthFactors(borrowers.map((b) => b.who.address));
      let t = shockAt + 3600;
      for (const [i, b] of borrowers.entries()) {
        const hf = healthFactors[i]!;
        if (hf === maxUint256) continue;
        b.entry.outcome.healthFactorAfterShock = hf.toString();
        if (hf >= 10n ** 18n) continue;
        b.entry.outcome.liquidated = true;
        t += 60;
        await script.callNow(t, actors.liquidator, script.pool, ChainScript.poolAbi(), 'liquidationCall', [
          script.addr(b.collateralSymbol),
          script.addr(b.debtSymbol),
          b.who.address,
          maxUint256,
          false,
        ]);
      }
    });
    script.setPrice(shockAt + POPULATION_SHOCK.restoredAfterDays * DAY, 'ETH / USD', script.prices.WETH!);
    script.setPrice(shockAt + POPULATION_SHOCK.restoredAfterDays * DAY + 60, 'VOLT / USD', script.prices.VOLT!);
  }

  assignPopulationEns(scripts, seed, population, actors);
  return population;
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
