import { concat, keccak256, namehash, type Chain, type Hash, type PublicClient, type Transport } from 'viem';
import type { ChainConfig } from '@credit/chain/chain-config';
import type {
  HexString,
  IndexedEnsEvent,
  IndexedLendingMove,
  IndexedLog,
  IndexedPriceAnswer,
  IndexedTransaction,
  RangeData,
} from '@credit/db/chain-activity-repository';
import { aaveV3PoolEvents, ensNameRegisteredEvent, ensRegistryEvents, erc20TransferEvent, lendingEventFields } from './chain-events';
import { priceFeedsOf } from '@credit/chain/assets';
import { answerUpdatedEvent, interestChargedEvent, interestMove, lendingMovesOf } from './market-history-events';

/** The node every name of the .eth registrar controller is registered under. */
const ETH_NODE = namehash('eth');

export interface ReadRangeOptions {
  /** Blocks fetched at once. */
  blockConcurrency: number;
  signal?: AbortSignal;
}

interface LogPosition {
  transactionHash: Hash | null;
  logIndex: number | null;
  blockNumber: bigint | null;
  transactionIndex: number | null;
  removed: boolean;
}

const hex = (value: string) => value.toLowerCase() as HexString;

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new Error(`range read cancelled: ${String(signal.reason ?? 'aborted')}`);
}

/**
 * Reads one block range: every block with its transactions (`eth_getBlockByNumber`, full
 * transactions), the range's ERC-20 Transfer logs, the lending pools' events and, on a chain with
 * ENS's registry and .eth registrar controller configured, the name service's ownership and
 * registration events, and the configured price feeds' answers (one `eth_getLogs` each). The pool's
 * events also give each account's lending moves (`lendingMovesOf`, with the devnet pool's interest
 * postings), and the feeds' answers the prices of any past block: a score's history is rebuilt from them. Everything in it is at least `confirmations` deep, so it no longer changes.
 */
export async function readRange(
  client: PublicClient<Transport, Chain>,
  config: ChainConfig,
  fromBlock: bigint,
  toBlock: bigint,
  options: ReadRangeOptions,
): Promise<RangeData> {
  const timestamps = new Map<bigint, number>();
  const transactions: IndexedTransaction[] = [];
  let toBlockHash: HexString | undefined;
  let toBlockTimestamp: number | undefined;
  let next = fromBlock;
  const worker = async () => {
    while (next <= toBlock) {
      checkAborted(options.signal);
      const number = next;
      next += 1n;
      const block = await client.getBlock({ blockNumber: number, includeTransactions: true });
      const timestamp = Number(block.timestamp);
      timestamps.set(number, timestamp);
      if (number === toBlock) {
        if (block.hash) toBlockHash = hex(block.hash);
        toBlockTimestamp = timestamp;
      }
      for (const t of block.transactions) {
        transactions.push({
          txHash: hex(t.hash),
          blockNumber: number,
          txIndex: t.transactionIndex,
          timestamp,
          from: hex(t.from),
          to: t.to ? hex(t.to) : null,
          value: t.value,
        });
      }
    }
  };
  const ens = config.ens?.registry && config.ens.registrarController ? config.ens : undefined;
  const [transferLogs, poolLogs, registryLogs, registeredLogs, answerLogs] = await Promise.all([
    // Only the registry's tokens: any contract can emit a Transfer event, and one deployed to emit
    // fake ones would otherwise inflate a wallet's transfers and move its last activity.
    config.tokens.length === 0
      ? Promise.resolve([])
      : client.getLogs({ address: config.tokens.map((t) => t.address), event: erc20TransferEvent, fromBlock, toBlock, strict: true }),
    config.lendingPools.length === 0
      ? Promise.resolve([])
      : client.getLogs({
          address: config.lendingPools.map((p) => p.address),
          events: [...aaveV3PoolEvents, interestChargedEvent],
          fromBlock,
          toBlock,
          strict: true,
        }),
    // only the configured registry and controller: anyone can emit look-alike events
    ens?.registry
      ? client.getLogs({ address: ens.registry, events: ensRegistryEvents, fromBlock, toBlock, strict: true })
      : Promise.resolve([]),
    ens?.registrarController
      ? client.getLogs({ address: ens.registrarController, event: ensNameRegisteredEvent, fromBlock, toBlock, strict: true })
      : Promise.resolve([]),
    client.getLogs({ address: priceFeedsOf(config), event: answerUpdatedEvent, fromBlock, toBlock, strict: true }),
    ...Array.from({ length: Math.max(1, options.blockConcurrency) }, worker),
  ]);
  checkAborted(options.signal);

  const logs: IndexedLog[] = [];
  const position = (log: LogPosition) => {
    if (log.removed || log.transactionHash === null || log.logIndex === null || log.blockNumber === null || log.transactionIndex === null) {
      return undefined;
    }
    const timestamp = timestamps.get(log.blockNumber);
    if (timestamp === undefined) throw new Error(`log in block ${log.blockNumber} outside range ${fromBlock}-${toBlock}`);
    return {
      txHash: hex(log.transactionHash),
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      txIndex: log.transactionIndex,
      timestamp,
    };
  };
  for (const log of transferLogs) {
    const at = position(log);
    if (!at) continue;
    logs.push({
      ...at,
      kind: 'transfer',
      contract: hex(log.address),
      party: hex(log.args.from),
      counterparty: hex(log.args.to),
      asset: null,
      amount: log.args.value,
    });
  }
  const lendingMoves: IndexedLendingMove[] = [];
  for (const log of poolLogs) {
    const at = position(log);
    if (!at) continue;
    const moves = log.eventName === 'InterestCharged' ? [interestMove(log.args)] : lendingMovesOf(log);
    for (const move of moves) {
      lendingMoves.push({
        ...at,
        pool: hex(log.address),
        account: hex(move.account),
        asset: hex(move.asset),
        supplied: move.supplied,
        borrowed: move.borrowed,
      });
    }
    if (log.eventName === 'InterestCharged') continue;
    const { kind, party, actor, asset, amount } = lendingEventFields(log);
    logs.push({ ...at, kind, contract: hex(log.address), party: hex(party), counterparty: hex(actor), asset: hex(asset), amount });
  }
  const priceAnswers: IndexedPriceAnswer[] = [];
  for (const log of answerLogs) {
    const at = position(log);
    if (!at) continue;
    priceAnswers.push({
      txHash: at.txHash,
      logIndex: at.logIndex,
      blockNumber: at.blockNumber,
      timestamp: at.timestamp,
      feed: hex(log.address),
      roundId: log.args.roundId,
      answer: log.args.current,
      updatedAt: Number(log.args.updatedAt),
    });
  }
  const ensEvents: IndexedEnsEvent[] = [];
  for (const log of registryLogs) {
    const at = position(log);
    if (!at) continue;
    const base = {
      txHash: at.txHash,
      logIndex: at.logIndex,
      blockNumber: at.blockNumber,
      timestamp: at.timestamp,
      contract: hex(log.address),
    };
    if (log.eventName === 'NewOwner') {
      // the subnode the parent's owner created or reassigned
      ensEvents.push({
        ...base,
        kind: 'new_owner',
        node: hex(keccak256(concat([log.args.node, log.args.label]))),
        name: null,
        owner: hex(log.args.owner),
      });
    } else {
      ensEvents.push({ ...base, kind: 'transfer', node: hex(log.args.node), name: null, owner: hex(log.args.owner) });
    }
  }
  for (const log of registeredLogs) {
    const at = position(log);
    if (!at) continue;
    // the label hashes to the event's indexed label: a mismatch is not a name we can show
    if (keccak256(new TextEncoder().encode(log.args.name)) !== log.args.label) continue;
    ensEvents.push({
      txHash: at.txHash,
      logIndex: at.logIndex,
      blockNumber: at.blockNumber,
      timestamp: at.timestamp,
      contract: hex(log.address),
      kind: 'name_registered',
      node: hex(keccak256(concat([ETH_NODE, log.args.label]))),
      name: `${log.args.name}.eth`,
      owner: hex(log.args.owner),
    });
  }
  return {
    chainId: config.id,
    fromBlock,
    toBlock,
    ...(toBlockHash ? { toBlockHash } : {}),
    ...(toBlockTimestamp !== undefined ? { toBlockTimestamp } : {}),
    transactions,
    logs,
    ensEvents,
    priceAnswers,
    lendingMoves,
  };
}
