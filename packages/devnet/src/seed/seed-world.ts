import { DEFAULT_MNEMONIC } from '../anvil';
import type { DevnetWorld, StartDevnetOptions } from '../devnet';
import { scheduleBulkPopulation } from './bulk-population';
import { scheduleCast, type Cast } from './cast';
import { ChainScript } from './chain-script';
import { schedulePopulation, type PopulationEntry } from './population';
import type { PopulationWorld } from '../state-file';
import { resolveWorldParams, type WorldParams } from './world-params';
import { seedActors } from './seed-accounts';
import { DAY, defaultAnchor, GENESIS_YEARS_BEFORE_ANCHOR } from './time';

export interface SeedOptions {
  /** The world's randomness: the same seed (and anchor) gives the same world. */
  seed?: string;
  /** "Now" of the seeded history (seconds): the last seeded event is shortly before it. */
  anchorTimestamp: number;
  /** Generated wallets of the reference population (split over the scoring chains). */
  populationSize?: number;
  /** The population's world (market and positions), over `REFERENCE_WORLD_PARAMS`. */
  world?: Partial<WorldParams>;
  mnemonic?: string;
  /** The scale world's generated bulk wallets (seed/bulk-population.ts) beside the population; 0 or omitted: none. */
  bulkWallets?: number;
}

export interface SeedResult {
  cast: Cast;
  population: PopulationEntry[];
  /** The population's parameters and the window's realised prices. */
  populationWorld: PopulationWorld;
  /** Bulk transactions scheduled per chain id (0 without bulk wallets). */
  bulkTransactions: Record<number, number>;
  /** Transactions written per chain id. */
  transactions: Record<number, number>;
}

/**
 * Seeds the scoring chains with years of history: stablecoin liquidity and a liquidator, the cast
 * (issue 3) and a reference population whose outcomes in a 90-day window of moving prices are
 * measured on chain, not assumed (seed/population). Each chain's timeline plays in time order; the chains in parallel.
 */
export async function seedWorld(world: DevnetWorld, options: SeedOptions): Promise<SeedResult> {
  const seed = options.seed ?? 'credit-devnet';
  const anchor = options.anchorTimestamp;
  const actors = seedActors(options.mnemonic ?? DEFAULT_MNEMONIC);
  const scoring = world.chains.filter((c) => c.spec.role === 'scoring');
  if (scoring.length === 0) throw new Error('seeding needs at least one scoring chain');
  const scripts = await Promise.all(scoring.map((c) => ChainScript.create(c, world.contracts[c.spec.id]!, actors.deployer)));

  // Liquidity and the liquidator, before any history.
  const setupAt = anchor - 5 * 365 * DAY - 10 * DAY;
  for (const script of scripts) {
    for (const symbol of ['DAI', 'USDC']) {
      script.mint(setupAt, symbol, actors.lp.address, script.unit(symbol, '50000000'));
      script.approvePool(setupAt + 10, actors.lp, symbol);
      script.supply(setupAt + 20, actors.lp, symbol, script.unit(symbol, '20000000'));
      script.mint(setupAt + 30, symbol, actors.liquidator.address, script.unit(symbol, '10000000'));
      script.approvePool(setupAt + 40, actors.liquidator, symbol);
    }
  }
  const cast = scheduleCast(scripts, seed, anchor, actors);
  const params = resolveWorldParams(options.world);
  const populationWorld: PopulationWorld = { params: { ...params }, featuresAt: 0, windowEnd: 0, prices: [] };
  const population = schedulePopulation(scripts, seed, anchor, options.populationSize ?? 300, actors, params, populationWorld);
  const bulk = options.bulkWallets ? scheduleBulkPopulation(scripts, seed, options.bulkWallets, setupAt + 100, anchor - DAY) : [];

  await Promise.all(
    scripts.map(async (script) => {
      await script.timeline.play();
      await script.writer.finish();
    }),
  );
  return {
    cast,
    population,
    populationWorld,
    bulkTransactions: Object.fromEntries(scripts.map((script, i) => [script.id, bulk[i] ?? 0])),
    transactions: Object.fromEntries(scripts.map((script) => [script.id, script.writer.transactions])),
  };
}

/**
 * startDevnet options for a seeded world: genesis six years before the anchor, deployment at
 * pinned timestamps, then `seedWorld`. The seed, anchor, population size and world parameters
 * (when given) are part of the world's identity (a saved world is reused only for the same ones).
 */
export function seededDevnetOptions(
  options: Partial<SeedOptions> = {},
): Pick<StartDevnetOptions, 'genesisTimestamp' | 'seed' | 'worldKey'> {
  const anchorTimestamp = options.anchorTimestamp ?? defaultAnchor();
  const seed = options.seed ?? 'credit-devnet';
  const populationSize = options.populationSize ?? 300;
  return {
    genesisTimestamp: anchorTimestamp - GENESIS_YEARS_BEFORE_ANCHOR * 365 * DAY,
    worldKey: JSON.stringify({
      seed,
      anchorTimestamp,
      populationSize,
      ...(options.world ? { world: resolveWorldParams(options.world) } : {}),
      // only when asked for: every world without bulk wallets keeps its key (and its saved state)
      ...(options.bulkWallets ? { bulkWallets: options.bulkWallets } : {}),
    }),
    seed: async (world) => {
      const result = await seedWorld(world, { ...options, seed, anchorTimestamp, populationSize });
      return { cast: result.cast, population: result.population, populationWorld: result.populationWorld };
    },
  };
}
