import type { Address } from 'viem';
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
  const { client, config } = chainClient;
  const wallets = [...new Set(addresses.map(lower))];
  const wanted = new Set(wallets);
  const tokens = config.tokens.map((t) => t.address);
  const pools = config.lendingPools.map((p) => p.address);
  const blockNumbers: bigint[] = [];
  for (let b = fromBlock; b <= toBlock; b++) blockNumbers.push(b);
  const [blocks, sent, received, poolLogs] = await Promise.all([
    Promise.all(blockNumbers.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true }))),
    tokens.length === 0
      ? []
      : client.getLogs({ address: tokens, event: erc20TransferEvent, args: { from: wallets }, fromBlock, toBlock, strict: true }),
    tokens.length === 0
      ? []
      : client.getLogs({ address: tokens, event: erc20TransferEvent, args: { to: wallets }, fromBlock, toBlock, strict: true }),
    pools.length === 0 ? [] : client.getLogs({ address: pools, events: aaveV3PoolEvents, fromBlock, toBlock, strict: true }),
  ]);
  const timeOf = new Map(blocks.map((b) => [b.number, Number(b.timestamp)]));
  const net = new Map<string, TailFlow>();
  const add = (address: string, asset: string, amount: bigint, blockNumber: bigint, txIndex: number) => {
    const who = lower(address);
    if (!wanted.has(who) || amount === 0n) return;
    const key = `${who}:${asset}:${blockNumber}:${txIndex}`;
    const flow = net.get(key) ?? {
      chainId: config.id,
      address: who,
      asset,
      amount: 0n,
      blockNumber,
      txIndex,
      timestamp: timeOf.get(blockNumber)!,
    };
    flow.amount += amount;
    net.set(key, flow);
  };
  for (const block of blocks) {
    for (const t of block.transactions) {
      if (t.value === 0n || t.to === null || lower(t.to) === lower(t.from)) continue;
      add(t.to, 'native', t.value, block.number, t.transactionIndex);
      add(t.from, 'native', -t.value, block.number, t.transactionIndex);
    }
  }
  const seen = new Set<string>();
  for (const log of [...sent, ...received]) {
    const id = `${log.transactionHash}:${log.logIndex}`;
    if (seen.has(id) || log.args.from.toLowerCase() === log.args.to.toLowerCase()) continue;
    seen.add(id);
    add(log.args.to, lower(log.address), log.args.value, log.blockNumber, log.transactionIndex);
    add(log.args.from, lower(log.address), -log.args.value, log.blockNumber, log.transactionIndex);
  }
  for (const log of poolLogs) {
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
