import type { Address, Hex } from 'viem';
import { multicall3Abi } from './abis';
import type { ChainClient } from './clients';
import { ChainReadError, combinePlans, executePlan, type ReadPlan } from './multicall';
import {
  netTailFlows,
  readTailFlows,
  startTailLogs,
  startTailRead,
  type TailBlock,
  type TailFlow,
  type TailRead,
} from './tail-flows-reader';
import { walletSnapshotPlan, type WalletSnapshot } from './wallet-snapshot-reader';

/**
 * Blocks read past the index's confirmation depth in the first round trip: the index usually
 * stops `confirmations` blocks short of the head, a few more when a block came since its last
 * poll. A block past the head costs a `null` answer.
 */
export const TAIL_SLACK_BLOCKS = 8;

/** Where the activity index of the chain ends: its last indexed block and its confirmation depth. */
export interface IndexEnd {
  indexedTo: bigint;
  confirmations: number;
}

/** A chain read at its head for a wallet reading: the snapshot, and the flows of the blocks past the index. */
export interface HeadReading {
  snapshot: WalletSnapshot;
  tail: TailFlow[];
}

export interface HeadReadOptions {
  /**
   * Called with the snapshot before any read beyond the first round trip (the tail past the
   * window): throws when the reading must stop there (an index too far behind its head).
   */
  beforeMore?: (snapshot: WalletSnapshot) => void;
}

/** The parent of the block a multicall ran at (`Multicall3.getLastBlockHash`); null where unreadable. */
const lastBlockHashPlan = (multicall: Address): ReadPlan<Hex | null> => ({
  calls: [{ address: multicall, abi: multicall3Abi, functionName: 'getLastBlockHash' }],
  decode: (results) => (results[0]?.ok ? (results[0].value as Hex) : null),
});

/** The chain moved (a reorganisation) between two answers of one batch. */
class MovedDuringRead extends Error {}

/**
 * A wallet reading's chain part in ONE round trip per chain: one JSON-RPC batch carrying the
 * snapshot's multicall at the head and, speculatively, the tail past the index (the blocks
 * `indexedTo + 1 … indexedTo + confirmations + TAIL_SLACK_BLOCKS` with their transactions, and
 * the token and pool logs of that window). What lies past the head the multicall saw is dropped.
 *
 * Checked for one head: every tail block up to the head is present and each is the child of the
 * one before, the head block's parent is the block the multicall's state came after, and every
 * log kept is of a block read. A reorganisation between two answers of the batch fails the check,
 * and the reading is made again (once; twice → ChainReadError, a 503 naming the chain).
 *
 * A second round trip happens only when the tail is longer than the window (the index further
 * behind than usual; `beforeMore` runs first) or when the node refuses a window that reaches past
 * its head (some nodes answer `eth_getLogs` beyond the head with an error): then the logs are read
 * again for the exact range. Without `indexEnd` (the chain's index is not built), the snapshot alone.
 */
export async function readAtHead(
  chainClient: ChainClient,
  addresses: readonly Address[],
  indexEnd: IndexEnd | undefined,
  options: HeadReadOptions = {},
): Promise<HeadReading> {
  if (indexEnd === undefined)
    return { snapshot: await executePlan(chainClient, walletSnapshotPlan(chainClient.config, addresses)), tail: [] };
  for (let attempt = 1; ; attempt++) {
    try {
      return await readOnce(chainClient, addresses, indexEnd, options);
    } catch (error) {
      if (!(error instanceof MovedDuringRead)) throw error;
      if (attempt === 2) throw new ChainReadError(chainClient.config.id, `the chain moved during two readings in a row (${error.message})`);
    }
  }
}

async function readOnce(chainClient: ChainClient, addresses: readonly Address[], indexEnd: IndexEnd, options: HeadReadOptions) {
  const batched: ChainClient = { ...chainClient, client: chainClient.batched ?? chainClient.client };
  const from = indexEnd.indexedTo + 1n;
  const windowEnd = indexEnd.indexedTo + BigInt(indexEnd.confirmations + TAIL_SLACK_BLOCKS);
  const plan = combinePlans({
    snapshot: walletSnapshotPlan(chainClient.config, addresses),
    parent: lastBlockHashPlan(chainClient.config.multicall3),
  });
  // started in one tick: the batching client sends them in one HTTP request
  const read = executePlan(batched, plan);
  const window = startTailRead(batched, addresses, from, windowEnd);
  const blocks = Promise.all(window.blocks);
  const logs = logsOf(window).catch(() => null);
  // settled below or abandoned with the reading: never an unhandled rejection
  blocks.catch(() => undefined);

  const { snapshot, parent } = await read;
  const head = snapshot.block.number;
  if (head < from) return { snapshot, tail: [] };
  const end = head < windowEnd ? head : windowEnd;
  const kept = (await blocks).slice(0, Number(end - from) + 1);
  checkLinked(kept, from, head === end ? parent : null);
  // a node that refused the window past its head: the logs of the exact range, after the guard
  let fetched = await logs;
  if (fetched === null) {
    options.beforeMore?.(snapshot);
    fetched = await logsOf(startTailLogs(batched, addresses, from, end));
  }
  let tail = netTailFlows(chainClient.config.id, addresses, withinBlocks(kept, fetched));
  if (head > windowEnd) {
    options.beforeMore?.(snapshot);
    tail = [...tail, ...(await readTailFlows(batched, addresses, windowEnd + 1n, head))];
  }
  return { snapshot, tail };
}

/** The three kinds of logs together. */
async function logsOf(started: ReturnType<typeof startTailLogs>): Promise<Omit<TailRead, 'blocks'>> {
  const [sent, received, poolLogs] = await Promise.all([started.sent, started.received, started.poolLogs]);
  return { sent, received, poolLogs };
}

/** Every block present, each the child of the one before, the last (the head) the child of `headParent`. */
function checkLinked(blocks: readonly (TailBlock | null)[], from: bigint, headParent: Hex | null): asserts blocks is TailBlock[] {
  blocks.forEach((block, i) => {
    const number = from + BigInt(i);
    if (block === null) throw new MovedDuringRead(`block ${number} is missing below the head`);
    const before = blocks[i - 1];
    if (before && block.parentHash !== before.hash) throw new MovedDuringRead(`block ${number} is not the child of block ${number - 1n}`);
  });
  const head = blocks.at(-1);
  if (headParent !== null && head && head.parentHash !== headParent) {
    throw new MovedDuringRead(`block ${head.number} is not the block the multicall read`);
  }
}

/** The logs of the blocks read (a log of a block past the head is dropped; one of another fork fails the reading). */
function withinBlocks(blocks: readonly TailBlock[], logs: Omit<TailRead, 'blocks'>): TailRead {
  const hashOf = new Map(blocks.map((b) => [b.number, b.hash]));
  const keep = <L extends { blockNumber: bigint; blockHash: Hex }>(list: readonly L[]): L[] =>
    list.filter((log) => {
      const hash = hashOf.get(log.blockNumber);
      if (hash === undefined) return false;
      if (hash !== log.blockHash) throw new MovedDuringRead(`a log of block ${log.blockNumber} is of another fork`);
      return true;
    });
  return { blocks, sent: keep(logs.sent), received: keep(logs.received), poolLogs: keep(logs.poolLogs) };
}
