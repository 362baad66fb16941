import { BlockNotFoundError, formatBlock, numberToHex, type Address, type Block } from 'viem';
import type { ChainClient } from './clients';
import { aaveV3PoolEvents, erc20TransferEvent } from './event-abis';

/**
 * One net movement in or out of a wallet's balance in one transaction, read from the chain for the
 * blocks the index has not reached yet (`readTailFlows`): the same figure as the index's
 * `BalanceFlowRecord` (`native`, a token's contract, or `collateral:<reserve>`; lowercase).
 */
export interface TailFlow {
  chainId: number;
  address: `0x${string}`;
  asset: string;
  /** Signed base units: in > 0, out < 0. */
  amount: bigint;
  blockNumber: bigint;
  txIndex: number;
  timestamp: number;
}

const lower = (value: string) => value.toLowerCase() as `0x${string}`;

/** What a tail read fetched: the blocks (with their transactions) and the three kinds of logs. */
export interface TailRead {
  blocks: readonly TailBlock[];
  sent: readonly TransferLog[];
  received: readonly TransferLog[];
  poolLogs: readonly PoolLog[];
}

export type TailBlock = NonNullable<Awaited<ReturnType<typeof getTailBlock>>>;
export type TransferLog = Awaited<ReturnType<typeof getTransferLogs>>[number];
export type PoolLog = Awaited<ReturnType<typeof getPoolLogs>>[number];

/**
 * A block with its transactions, or null past the head: `eth_getBlockByNumber` asked directly and
 * formatted as viem's `getBlock` formats it. `getBlock` throws a `BlockNotFoundError` for a block
 * past the head, and the tail read asks for several of those on purpose, each an error object built
 * for nothing.
 */
async function getTailBlock(chainClient: ChainClient, blockNumber: bigint) {
  const block = await chainClient.client.request(
    { method: 'eth_getBlockByNumber', params: [numberToHex(blockNumber), true] },
    { dedupe: true },
  );
  return block === null ? null : (formatBlock(block) as Block<bigint, true, 'latest'>);
}

function getTransferLogs(chainClient: ChainClient, side: 'from' | 'to', wallets: `0x${string}`[], fromBlock: bigint, toBlock: bigint) {
  const address = chainClient.config.tokens.map((t) => t.address);
  const args = side === 'from' ? { from: wallets } : { to: wallets };
  return chainClient.client.getLogs({ address, event: erc20TransferEvent, args, fromBlock, toBlock, strict: true });
}

function getPoolLogs(chainClient: ChainClient, fromBlock: bigint, toBlock: bigint) {
  const address = chainClient.config.lendingPools.map((p) => p.address);
  return chainClient.client.getLogs({ address, events: aaveV3PoolEvents, fromBlock, toBlock, strict: true });
}

/**
 * The reads of a tail `fromBlock..toBlock`, all started at once (on a batching client they leave
 * in one JSON-RPC batch): each block with its transactions (`null` past the head), and the logs.
 */
export function startTailRead(chainClient: ChainClient, addresses: readonly Address[], fromBlock: bigint, toBlock: bigint) {
  return {
    blocks: blockNumbersOf(fromBlock, toBlock).map((blockNumber) => getTailBlock(chainClient, blockNumber)),
    ...startTailLogs(chainClient, addresses, fromBlock, toBlock),
  };
}

/** The tail's logs alone: the registry's token transfers from and to the wallets, and its pools' events. */
export function startTailLogs(chainClient: ChainClient, addresses: readonly Address[], fromBlock: bigint, toBlock: bigint) {
  const wallets = [...new Set(addresses.map(lower))];
  const none = Promise.resolve([]);
  const { tokens, lendingPools } = chainClient.config;
  return {
    sent: tokens.length === 0 ? none : getTransferLogs(chainClient, 'from', wallets, fromBlock, toBlock),
    received: tokens.length === 0 ? none : getTransferLogs(chainClient, 'to', wallets, fromBlock, toBlock),
    poolLogs: lendingPools.length === 0 ? none : getPoolLogs(chainClient, fromBlock, toBlock),
  };
}

/**
 * The movements in and out of `addresses`' balances in blocks `fromBlock..toBlock` (inclusive):
 * the value of transactions in and out (each block with its transactions), token transfers of the
 * registry's tokens in and out, collateral supplied for / withdrawn by them on the registry's
 * pools. A wallet reading reads the chain at its head while the index stops `confirmations` blocks
 * short of it: money that arrived in those last blocks (for the block a lender reads) must still
 * be seen as arrived. Self-sends are left out; amounts are netted per transaction. An empty range
 * (`fromBlock > toBlock`) reads nothing.
 */
export async function readTailFlows(
  chainClient: ChainClient,
  addresses: readonly Address[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<TailFlow[]> {
  if (fromBlock > toBlock || addresses.length === 0) return [];
  const started = startTailRead(chainClient, addresses, fromBlock, toBlock);
  const [blocks, sent, received, poolLogs] = await Promise.all([
    Promise.all(started.blocks),
    started.sent,
    started.received,
    started.poolLogs,
  ]);
  const missing = blockNumbersOf(fromBlock, toBlock).find((_, i) => blocks[i] === null);
  if (missing !== undefined) throw new BlockNotFoundError({ blockNumber: missing });
  return netTailFlows(chainClient.config.id, addresses, { blocks: blocks as TailBlock[], sent, received, poolLogs });
}

function blockNumbersOf(fromBlock: bigint, toBlock: bigint): bigint[] {
  const numbers: bigint[] = [];
  for (let b = fromBlock; b <= toBlock; b++) numbers.push(b);
  return numbers;
}

/** The net flows of `addresses` in what a tail read fetched (pure: no request). */
export function netTailFlows(chainId: number, addresses: readonly Address[], read: TailRead): TailFlow[] {
  const wanted = new Set(addresses.map(lower));
  const timeOf = new Map(read.blocks.map((b) => [b.number, Number(b.timestamp)]));
  const net = new Map<string, TailFlow>();
  const add = (address: string, asset: string, amount: bigint, blockNumber: bigint, txIndex: number) => {
    const who = lower(address);
    if (!wanted.has(who) || amount === 0n) return;
    const key = `${who}:${asset}:${blockNumber}:${txIndex}`;
    const flow = net.get(key) ?? { chainId, address: who, asset, amount: 0n, blockNumber, txIndex, timestamp: timeOf.get(blockNumber)! };
    flow.amount += amount;
    net.set(key, flow);
  };
  for (const block of read.blocks) {
    for (const t of block.transactions) {
      if (t.value === 0n || t.to === null || lower(t.to) === lower(t.from)) continue;
      add(t.to, 'native', t.value, block.number, t.transactionIndex);
      add(t.from, 'native', -t.value, block.number, t.transactionIndex);
    }
  }
  const seen = new Set<string>();
  for (const log of [...read.sent, ...read.received]) {
    const id = `${log.transactionHash}:${log.logIndex}`;
    if (seen.has(id) || log.args.from.toLowerCase() === log.args.to.toLowerCase()) continue;
    seen.add(id);
    add(log.args.to, lower(log.address), log.args.value, log.blockNumber, log.transactionIndex);
    add(log.args.from, lower(log.address), -log.args.value, log.blockNumber, log.transactionIndex);
  }
  for (const log of read.poolLogs) {
    if (log.eventName === 'Supply') {
      add(log.args.onBehalfOf, `collateral:${lower(log.args.reserve)}`, log.args.amount, log.blockNumber, log.transactionIndex);
    } else if (log.eventName === 'Withdraw') {
      add(log.args.user, `collateral:${lower(log.args.reserve)}`, -log.args.amount, log.blockNumber, log.transactionIndex);
    }
  }
  return [...net.values()]
    .filter((f) => f.amount !== 0n)
    .sort((a, b) => (a.blockNumber === b.blockNumber ? a.txIndex - b.txIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}
