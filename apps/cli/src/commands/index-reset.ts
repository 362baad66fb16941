import { ChainActivityRepository } from '@credit/db/chain-activity-repository';
import { UsageError } from '../cli-errors';
import { parseFlags, requireFlag } from '../cli-flags';
import { printJson } from '../cli-io';
import type { Command } from '../command';

/**
 * `index:reset --chain <id>`: deletes everything indexed for the chain (activity, events, market
 * history, ranges, checkpoint), so the indexer indexes it again from its start block, with the
 * whole market history the score history needs. Run it with the chain's indexer stopped: a range
 * a running indexer commits meanwhile would not be part of the new index's plan.
 */
export const indexReset: Command = {
  name: 'index:reset',
  usage: 'index:reset --chain <chain id>',
  summary: "delete a chain's index, to index it again (with its indexer stopped)",
  async run(args, context) {
    const flags = parseFlags('index:reset', args, ['chain']);
    const raw = requireFlag('index:reset', flags, 'chain');
    const chainId = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(chainId)) throw new UsageError(`index:reset: --chain must be a positive chain id, got "${raw}"`);
    const repository = new ChainActivityRepository(context.db());
    const before = await repository.checkpoint(chainId);
    await repository.resetChain(chainId);
    printJson(context.io, { chain_id: chainId, reset: true, indexed_to_before: before === null ? null : before.indexedTo.toString() });
    return 0;
  },
};
