import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Address } from 'viem';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { option } from '../calibration/cli';
import { runReferenceCalibration } from '../calibration/reference-run';
import { MarketBlindCeiling } from './market-blind-ceiling';
import { worldKey, type EvaluationWorld } from './protocol';

/** One wallet of an evaluation world: its features at T, its outcome in the window, the ceiling's estimate. */
export interface WorldMember {
  address: Address;
  features: WalletFeatures;
  liquidated: boolean;
  /** The liquidation probability the hidden traits and the position at T imply, the world's market ahead known (the ceiling). */
  ceiling: number | null;
  /** The same with the market ahead drawn from the training prior (`MarketBlindCeiling`); null where the ceiling is. */
  marketBlindCeiling: number | null;
}

/**
 * A wallet the outcome can happen to: one that owes something at T. Only a debt can be liquidated,
 * so the protocol's first population is these wallets (a ranking of credit skill among borrowers);
 * every wallet with activity at T is its second.
 */
export const atRisk = (m: Pick<WorldMember, 'features'>): boolean => m.features.debtUsd > 0;

export interface WorldDataset {
  world: EvaluationWorld;
  key: string;
  /** The features moment T (seconds). */
  featuresAt: number;
  members: WorldMember[];
}

export interface CollectOptions {
  redisUrl: string;
  natsUrl: string;
  /** Where datasets are kept between runs (a world's chain reading takes about a minute). */
  cacheDir: string;
  log?: (message: string) => void;
}

/**
 * What the model-lab commands collect worlds with: NATS and Redis from `NATS_URL` and `REDIS_URL`
 * (the machine's own by default), the datasets kept under `--cache` (default `.cache/model-evaluation`).
 */
export function collectOptions(log: (message: string) => void): CollectOptions {
  return {
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    natsUrl: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    cacheDir: option('--cache') ?? join(process.cwd(), '.cache', 'model-evaluation'),
    log,
  };
}

/**
 * The dataset of one world: read from the cache when the same world (definition, generator recipe,
 * data version) was read before, else seeded on an ephemeral devnet and read through the real
 * pipeline (`runReferenceCalibration` with the world: indexer stopped at T, chain state at T,
 * identity service, feature mapping), then cached.
 */
export async function collectWorld(world: EvaluationWorld, options: CollectOptions): Promise<WorldDataset> {
  const key = worldKey(world);
  const file = join(options.cacheDir, `${key}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as WorldDataset;
  const log = options.log ?? (() => undefined);
  const run = await runReferenceCalibration({
    redisUrl: options.redisUrl,
    natsUrl: options.natsUrl,
    // the reference world is seeded exactly as the model card seeds it
    ...(world.name === 'reference' ? {} : { world: { seed: world.seed, populationSize: world.populationSize, params: world.params } }),
    log: (message) => log(`${world.name}: ${message}`),
  });
  const blind = new MarketBlindCeiling(world.params);
  const dataset: WorldDataset = {
    world,
    key,
    featuresAt: run.shockAt,
    members: run.members.preShock.map((m) => ({
      address: m.address,
      features: m.features,
      liquidated: m.liquidated,
      ceiling: m.ceiling ?? null,
      // no debt at T (no ceiling input): nothing to liquidate, as the seeding's ceiling says
      marketBlindCeiling:
        m.ceiling === undefined ? null : m.ceilingWallet ? blind.probability(m.ceilingWallet, `${world.seed}:${m.address}`) : 0,
    })),
  };
  mkdirSync(options.cacheDir, { recursive: true });
  writeFileSync(file, JSON.stringify(dataset));
  return dataset;
}
