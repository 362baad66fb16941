import { getAddress, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import { readWalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { ChainActivityReader } from '@credit/db/chain-activity-reader';
import type { LendingEventRecord } from '@credit/db/chain-activity-types';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import type { IdentityEvidence } from '@credit/wallet/identity-attestations';
import { walletFeaturesWithNotes } from '@credit/scoring/features/wallet-features';

/** One lending event and the wallet's score one block before it and at its block (after it). */
export interface ReplayedEvent {
  address: Address;
  chainId: number;
  kind: 'repay' | 'liquidation';
  block: number;
  /** null: nothing to score at that block (no activity yet). */
  before: number | null;
  after: number | null;
  /** Each factor's points before and after (the why of a move), in the model's order. */
  factors: { before: number[] | null; after: number[] | null };
}

export interface EventReplayInput {
  /** The index, read as of each block (`activityAsOfBlock`, `lendingEventsOf` and the wallets' history with a bound). */
  index: Pick<ChainActivityReader, 'activityAsOfBlock' | 'lendingEventsOf' | 'balanceFlowsOf' | 'interactionsOf'>;
  /** Clients that read past blocks' state, with a staleness bound wide enough for the feeds then. */
  clients: ReadonlyMap<number, ChainClient>;
  /** The wallets whose events are replayed. */
  addresses: readonly Address[];
  attestations: ReadonlyMap<Address, IdentityEvidence>;
  /** The names each wallet owns and since when (read at the head: a name got later is left out by its date). */
  names: ReadonlyMap<Address, readonly { name: string; since: number }[]>;
  log?: (message: string) => void;
}

/**
 * Every repayment and every liquidation of the given wallets, scored through the real pipeline
 * one block before and at the event's block: the indexer's aggregation as of the block, the
 * lending events up to it, the chain's state read at it, the feature mapping and the model. On the
 * event's chain (the other chains' state does not change between the two blocks, and the reference
 * world's wallets each live on one chain). A liquidation must never raise the score and a
 * repayment never lower it (issue 17).
 */
export async function replayLendingEvents(input: EventReplayInput): Promise<ReplayedEvent[]> {
  const chainIds = [...input.clients.keys()];
  const events = (await input.index.lendingEventsOf(chainIds, input.addresses)).filter(
    (e): e is LendingEventRecord & { kind: 'repay' | 'liquidation' } => e.kind !== 'borrow',
  );
  const byBlock = new Map<string, (LendingEventRecord & { kind: 'repay' | 'liquidation' })[]>();
  for (const e of events) {
    const key = `${e.chainId}:${e.blockNumber}`;
    const list = byBlock.get(key);
    if (list) list.push(e);
    else byBlock.set(key, [e]);
  }
  input.log?.(`replaying ${events.length} repayments and liquidations in ${byBlock.size} blocks`);
  const replayed: ReplayedEvent[] = [];
  for (const group of byBlock.values()) {
    const { chainId, blockNumber } = group[0]!;
    const addresses = [...new Set(group.map((e) => getAddress(e.address)))];
    const [before, after] = await Promise.all([
      scoresAt(input, chainId, blockNumber - 1n, addresses),
      scoresAt(input, chainId, blockNumber, addresses),
    ]);
    for (const e of group) {
      const address = getAddress(e.address);
      replayed.push({
        address,
        chainId,
        kind: e.kind,
        block: Number(blockNumber),
        before: before.get(address)?.score ?? null,
        after: after.get(address)?.score ?? null,
        factors: { before: before.get(address)?.points ?? null, after: after.get(address)?.points ?? null },
      });
    }
  }
  return replayed;
}

/** The wallets' scores on one chain as of `block` (its state, its index up to it, its timestamp). */
async function scoresAt(
  input: EventReplayInput,
  chainId: number,
  block: bigint,
  addresses: readonly Address[],
): Promise<Map<Address, { score: number; points: number[] }>> {
  const client = input.clients.get(chainId)!;
  const bound = new Map([[chainId, block]]);
  const [snapshot, activity, lendingEvents, flows, interactions] = await Promise.all([
    readWalletSnapshot(client, addresses, { blockNumber: block }),
    input.index.activityAsOfBlock(chainId, addresses, block),
    input.index.lendingEventsOf([chainId], addresses, bound),
    input.index.balanceFlowsOf([chainId], addresses, bound),
    input.index.interactionsOf([chainId], addresses, bound),
  ]);
  const asOfSeconds = Number(snapshot.block.timestamp);
  const scores = new Map<Address, { score: number; points: number[] }>();
  for (const address of addresses) {
    const features = walletFeaturesWithNotes({
      address,
      activity: activity.filter((r) => getAddress(r.address) === address),
      lendingEvents: lendingEvents.filter((e) => getAddress(e.address) === address),
      balanceFlows: flows.filter((f) => getAddress(f.address) === address),
      interactions: interactions.filter((i) => getAddress(i.address) === address),
      snapshots: [snapshot],
      asOfSeconds,
      ...(input.attestations.has(address) ? { attestations: input.attestations.get(address)! } : {}),
      names: input.names.get(address) ?? [],
    }).features;
    if (!hasActivity(features)) continue;
    const result = scoreWallet(features);
    scores.set(address, { score: result.score, points: result.factors.map((f) => f.points) });
  }
  return scores;
}
