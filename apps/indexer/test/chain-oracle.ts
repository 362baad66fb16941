import { createPublicClient, http, parseAbiItem, type Address, type Chain, type Hash, type PublicClient, type Transport } from 'viem';
import { devnetAbi } from '@credit/devnet/abis';
import type { ChainContracts } from '@credit/devnet/deploy';
import type { AddressActivityRecord, EventStats, TxRef } from '@credit/db/chain-activity-repository';

/**
 * What the indexer should have recorded, computed independently of it: a straight scan of every
 * block and two `eth_getLogs` over the whole chain (the registry's tokens' Transfers, the pool's events decoded with the
 * compiled contract's own ABI), grouped per address in memory. No queue, no database, no range.
 */
export interface ChainTruth {
  chainId: number;
  confirmed: bigint;
  client: PublicClient<Transport, Chain>;
  activity(address: Address): Omit<AddressActivityRecord, 'chainId' | 'address'> | null;
}

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

interface Involvement {
  hash: Hash;
  blockNumber: bigint;
  txIndex: number;
  timestamp: number;
}

/** What the chain says, from scratch: `tokens` are the registry's (only their Transfers count). */
export async function chainTruth(chain: Chain, rpcUrl: string, contracts: ChainContracts, confirmed: bigint): Promise<ChainTruth> {
  const pool = contracts.lendingPool!.address;
  const tokens = Object.values(contracts.tokens).map((t) => t.address);
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient<Transport, Chain>;
  const numbers = Array.from({ length: Number(confirmed) + 1 }, (_, i) => BigInt(i));
  const blocks: { number: bigint; timestamp: number; txs: { hash: Hash; index: number; from: Address; to: Address | null }[] }[] = [];
  for (let i = 0; i < numbers.length; i += 32) {
    const batch = await Promise.all(numbers.slice(i, i + 32).map((n) => client.getBlock({ blockNumber: n, includeTransactions: true })));
    for (const b of batch) {
      blocks.push({
        number: b.number,
        timestamp: Number(b.timestamp),
        txs: b.transactions.map((t) => ({ hash: t.hash, index: t.transactionIndex, from: t.from, to: t.to })),
      });
    }
  }
  const timeOf = new Map(blocks.map((b) => [b.number, b.timestamp]));
  const transfers = await client.getLogs({ address: tokens, event: transferEvent, fromBlock: 0n, toBlock: confirmed, strict: true });
  const poolEvents = await client.getContractEvents({ address: pool, abi: devnetAbi('LendingPool'), fromBlock: 0n, toBlock: confirmed });

  const same = (a: string | null | undefined, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
  const stats = (times: number[]): EventStats => ({
    count: times.length,
    first: times.length ? new Date(Math.min(...times) * 1000) : null,
    last: times.length ? new Date(Math.max(...times) * 1000) : null,
  });

  return {
    chainId: chain.id,
    confirmed,
    client,
    activity(address) {
      const involved: Involvement[] = [];
      let sent = 0;
      for (const b of blocks) {
        for (const t of b.txs) {
          if (same(t.from, address)) sent += 1;
          if (same(t.from, address) || same(t.to, address))
            involved.push({ hash: t.hash, blockNumber: b.number, txIndex: t.index, timestamp: b.timestamp });
        }
      }
      const at = (log: { transactionHash: Hash; blockNumber: bigint; transactionIndex: number }) => ({
        hash: log.transactionHash,
        blockNumber: log.blockNumber,
        txIndex: log.transactionIndex,
        timestamp: timeOf.get(log.blockNumber)!,
      });
      let transferCount = 0;
      for (const log of transfers) {
        if (same(log.args.from, address) || same(log.args.to, address)) {
          transferCount += 1;
          involved.push(at(log));
        }
      }
      const kinds: Record<string, number[]> = { Supply: [], Withdraw: [], Borrow: [], Repay: [], LiquidationCall: [] };
      for (const log of poolEvents) {
        const args = log.args as Record<string, string>;
        // the account each event is about, and who else it names
        const [account, other] =
          log.eventName === 'Supply' || log.eventName === 'Borrow'
            ? [args.onBehalfOf, args.user]
            : log.eventName === 'Withdraw'
              ? [args.user, args.to]
              : log.eventName === 'Repay'
                ? [args.user, args.repayer]
                : log.eventName === 'LiquidationCall'
                  ? [args.user, args.liquidator]
                  : [undefined, undefined];
        if (account === undefined) continue;
        if (same(account, address)) kinds[log.eventName]!.push(timeOf.get(log.blockNumber!)!);
        if (same(account, address) || same(other, address)) involved.push(at(log as never));
      }
      if (involved.length === 0) return null;
      involved.sort((a, b) => (a.blockNumber === b.blockNumber ? a.txIndex - b.txIndex : a.blockNumber < b.blockNumber ? -1 : 1));
      const ref = (i: Involvement): TxRef => ({
        hash: i.hash.toLowerCase() as Hash,
        blockNumber: i.blockNumber,
        txIndex: i.txIndex,
        timestamp: new Date(i.timestamp * 1000),
      });
      return {
        firstTransaction: ref(involved[0]!),
        lastTransaction: ref(involved[involved.length - 1]!),
        transactionCount: sent,
        transferCount,
        supply: stats(kinds.Supply!),
        withdraw: stats(kinds.Withdraw!),
        borrow: stats(kinds.Borrow!),
        repay: stats(kinds.Repay!),
        liquidation: stats(kinds.LiquidationCall!),
      };
    },
  };
}
