import type { StartDevnetOptions } from '../devnet';
import { REFERENCE_WORLD } from './reference-world';
import { seededDevnetOptions } from './seed-world';

/** The scale world's bulk wallets by default (issue 37: a world 300× the reference world's 300 wallets). */
export const SCALE_WORLD_BULK_WALLETS = 100_000;

/**
 * The scale world of issue 37 (docs/SCALE.md): the reference world (same seed, anchor, population,
 * cast and clock, so their scores compare) with `bulkWallets` generated wallets and their history
 * around it (seed/bulk-population.ts). Its own world key: saved beside the reference world, never over it.
 */
export function scaleDevnetOptions(
  bulkWallets: number = SCALE_WORLD_BULK_WALLETS,
): Pick<StartDevnetOptions, 'genesisTimestamp' | 'seed' | 'worldKey' | 'clockAt'> {
  return { ...seededDevnetOptions({ ...REFERENCE_WORLD, bulkWallets }), clockAt: REFERENCE_WORLD.anchorTimestamp };
}
