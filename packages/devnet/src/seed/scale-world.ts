import type { StartDevnetOptions } from '../devnet';
import { REFERENCE_WORLD } from './reference-world';
import { seededDevnetOptions } from './seed-world';

/** The scale world's bulk wallets by default (issue 37: a world 300× the reference world's 300 wallets). */
export const SCALE_WORLD_BULK_WALLETS = 100_000;

/**
 * Past blocks' states each anvil keeps on disk while the scale world is seeded. Unbounded, anvil
 * wrote every block's whole state (~37 GB a chain two thirds through 100,000 wallets, which filled
 * the disk); nothing reads the state of a block this far back (the indexer reads blocks and logs,
 * the scores the head), and a saved world holds only the head's state anyway.
 */
const PERSISTED_STATES = 64;

/**
 * The scale world of issue 37 (docs/SCALE.md): the reference world (same seed, anchor, population,
 * cast and clock, so their scores compare) with `bulkWallets` generated wallets and their history
 * around it (seed/bulk-population.ts). Its own world key: saved beside the reference world, never over it.
 */
export function scaleDevnetOptions(
  bulkWallets: number = SCALE_WORLD_BULK_WALLETS,
): Pick<StartDevnetOptions, 'genesisTimestamp' | 'seed' | 'worldKey' | 'clockAt' | 'anvilArgs'> {
  return {
    ...seededDevnetOptions({ ...REFERENCE_WORLD, bulkWallets }),
    clockAt: REFERENCE_WORLD.anchorTimestamp,
    anvilArgs: ['--max-persisted-states', String(PERSISTED_STATES)],
  };
}
