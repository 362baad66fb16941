import type { PopulationWorld } from '../state-file';
import type { ChainScript } from './chain-script';
import { castEthDip } from './cast';
import { simulatedPaths } from './outcome-ceiling';
import type { PopulationEntry } from './population-entry';
import { assignPopulationEns } from './population-ens';
import { scheduleWalletHistory } from './population-history';
import type { WindowBorrower } from './population-positions';
import { dayStepAt, scheduleWindow } from './population-window';
import { pricePath, type MovingAsset, type PricePath } from './price-path';
import { Rng } from './rng';
import { seededAccount, type SeedActors } from './seed-accounts';
import { DAY } from './time';
import { OUTCOME_WINDOW, REFERENCE_WORLD_PARAMS, type WorldParams } from './world-params';

export { OUTCOME_WINDOW } from './world-params';
export type { PopulationEntry, PopulationOutcome } from './population-entry';
export { assignPopulationEns, POPULATION_ENS_NAMES } from './population-ens';

/** Monte Carlo paths per wallet of the outcome ceiling. */
export const CEILING_PATHS = 400;

/** The moments of a population's timeline for an anchor. */
export function populationTimes(anchor: number): { featuresAt: number; windowEnd: number; restoredAt: number } {
  const featuresAt = anchor - OUTCOME_WINDOW.featuresAtDaysBeforeAnchor * DAY;
  return {
    featuresAt,
    windowEnd: featuresAt + OUTCOME_WINDOW.days * DAY,
    restoredAt: featuresAt + OUTCOME_WINDOW.restoredAfterDays * DAY,
  };
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

  const history = {
    scripts,
    seed,
    rng,
    wallets,
    starts,
    featuresAt,
    windowEnd,
    historyEnd,
    aprPpm,
    params,
    actors,
    castDip: castEthDip(anchor),
  };
  wallets.forEach((who, i) => {
    const { entry, borrower } = scheduleWalletHistory(history, who, i);
    population.push(entry);
    if (!borrower) return;
    const list = byChain.get(entry.chainId) ?? [];
    list.push(borrower);
    byChain.set(entry.chainId, list);
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
    scheduleWindow(script, byChain.get(script.id) ?? [], {
      seed,
      params,
      featuresAt,
      windowEnd,
      restoredAt,
      aprPpm,
      price8,
      paths,
      actors,
    });
  }

  assignPopulationEns(scripts, seed, population, actors);
  return population;
}
