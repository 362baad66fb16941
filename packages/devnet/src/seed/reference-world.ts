import type { StartDevnetOptions } from '../devnet';
import { seededDevnetOptions, type SeedOptions } from './seed-world';
import { REFERENCE_WORLD_PARAMS } from './world-params';

/**
 * The reference world of andromeda_1.0 (docs/MODEL.md): the default seed and population, anchored
 * at a fixed moment with the chains' clock left there, so its cast's scores and its population's
 * calibration are the same on every machine and every day. The model's decile cut-points and its
 * AUC are measured on this world; the end-to-end score tests run on it.
 */
export const REFERENCE_WORLD = {
  seed: 'credit-devnet',
  /** 2026-06-01T00:00:00Z */
  anchorTimestamp: 1_780_272_000,
  populationSize: 300,
  /** The population's world: the default parameters, spelled out (so they are part of its key). */
  world: REFERENCE_WORLD_PARAMS,
} as const satisfies Required<Omit<SeedOptions, 'mnemonic' | 'bulkWallets'>>;

/** startDevnet options for the reference world (ephemeral unless a `stateDir` is added). */
export function referenceDevnetOptions(): Pick<StartDevnetOptions, 'genesisTimestamp' | 'seed' | 'worldKey' | 'clockAt'> {
  return { ...seededDevnetOptions(REFERENCE_WORLD), clockAt: REFERENCE_WORLD.anchorTimestamp };
}
