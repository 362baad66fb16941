/** The indexer's records as the rest of the code base sees them (no Prisma type). */

/** Addresses are stored lowercase. */
export type HexString = `0x${string}`;

export type ChainEventKind = 'transfer' | 'supply' | 'withdraw' | 'borrow' | 'repay' | 'liquidation';
export const LENDING_EVENT_KINDS = ['supply', 'withdraw', 'borrow', 'repay', 'liquidation'] as const;
export type LendingEventKind = (typeof LENDING_EVENT_KINDS)[number];

export interface IndexedTransaction {
  txHash: HexString;
  blockNumber: bigint;
  txIndex: number;
  /** Seconds since the epoch (the block's timestamp). */
  timestamp: number;
  from: HexString;
  /** Null for a contract creation. */
  to: HexString | null;
  /** Wei sent with it (0 when absent). */
  value?: bigint;
}

export interface IndexedLog {
  txHash: HexString;
  logIndex: number;
  blockNumber: bigint;
  txIndex: number;
  timestamp: number;
  kind: ChainEventKind;
  contract: HexString;
  /** Transfer: sender. Lending: the account the event is about. */
  party: HexString;
  /** Transfer: recipient. Lending: who acted. */
  counterparty: HexString | null;
  asset: HexString | null;
  amount: bigint;
}

/** One name-service event (packages/db/prisma/schema.prisma `EnsNameEvent`). */
export interface IndexedEnsEvent {
  txHash: HexString;
  logIndex: number;
  blockNumber: bigint;
  timestamp: number;
  kind: 'name_registered' | 'new_owner' | 'transfer';
  contract: HexString;
  /** The namehash of the name the event is about. */
  node: HexString;
  /** name_registered: `<label>.eth`. */
  name: string | null;
  owner: HexString;
}

/** A configured price feed's new answer (packages/db/prisma/schema.prisma `ChainPriceAnswer`). */
export interface IndexedPriceAnswer {
  txHash: HexString;
  logIndex: number;
  blockNumber: bigint;
  timestamp: number;
  feed: HexString;
  roundId: bigint;
  answer: bigint;
  /** The round's `updatedAt`, unix seconds. */
  updatedAt: number;
}

/** A change of an account's supplied and borrowed units of one reserve (`ChainLendingMove`), signed. */
export interface IndexedLendingMove {
  txHash: HexString;
  logIndex: number;
  blockNumber: bigint;
  txIndex: number;
  timestamp: number;
  pool: HexString;
  account: HexString;
  asset: HexString;
  supplied: bigint;
  borrowed: bigint;
}

export interface RangeData {
  chainId: number;
  fromBlock: bigint;
  toBlock: bigint;
  /** Hash of block `toBlock` as read, kept to tell later whether the chain still has it. */
  toBlockHash?: HexString;
  /** Timestamp (seconds) of block `toBlock`: how recent the indexed history is. */
  toBlockTimestamp?: number;
  transactions: readonly IndexedTransaction[];
  logs: readonly IndexedLog[];
  /** The name service's events, on a chain with ENS configured (none elsewhere). */
  ensEvents?: readonly IndexedEnsEvent[];
  /** The configured price feeds' answers. */
  priceAnswers?: readonly IndexedPriceAnswer[];
  /** What each pool event changed in an account's supplied and borrowed amounts. */
  lendingMoves?: readonly IndexedLendingMove[];
}

export interface WriteRangeResult {
  /** Rows this write added (0 and 0 for a replay). */
  insertedTransactions: number;
  insertedLogs: number;
  /** Addresses whose activity row changed. */
  addresses: number;
}

export interface TxRef {
  hash: HexString;
  blockNumber: bigint;
  txIndex: number;
  timestamp: Date;
}

export interface EventStats {
  count: number;
  first: Date | null;
  last: Date | null;
}

/** One address on one chain, as the rest of the code base sees it. */
export interface AddressActivityRecord {
  chainId: number;
  address: HexString;
  /** First / last transaction the address took part in (sent, received, or named in an indexed event). */
  firstTransaction: TxRef;
  lastTransaction: TxRef;
  /** Transactions sent by the address. */
  transactionCount: number;
  /** ERC-20 transfers in or out. */
  transferCount: number;
  supply: EventStats;
  withdraw: EventStats;
  borrow: EventStats;
  repay: EventStats;
  liquidation: EventStats;
}

export interface CheckpointRecord {
  chainId: number;
  indexedTo: bigint;
  plannedTo: bigint;
  /** Timestamp of block `indexedTo` (null before the first range completed, or when not recorded). */
  indexedToAt: Date | null;
  /** The follower's confirmation depth: the blocks this close to the head are left for later by design. */
  confirmations: number;
}

/** A completed range's last block as it was indexed. */
export interface IndexedBlockRef {
  block: bigint;
  hash: HexString;
}

export interface RollbackResult {
  /** The chain's checkpoint after the rollback (every block up to it is still indexed). */
  indexedTo: bigint;
  deletedTransactions: number;
  deletedLogs: number;
  /** Addresses whose activity was rebuilt from the rows left. */
  addresses: number;
}

export interface BlockRange {
  chainId: number;
  fromBlock: bigint;
  toBlock: bigint;
}

export interface PlanOptions {
  chainId: number;
  /** First block to index when the chain has no checkpoint yet. */
  startBlock: bigint;
  /** Highest block that may be planned (the confirmed head). */
  upTo: bigint;
  rangeSize: number;
  /** At most this many ranges may be planned and not completed at once (bounds the backlog). */
  maxPending: number;
  /** The confirmation depth `upTo` was computed with, recorded with the checkpoint (default 0). */
  confirmations?: number;
}

/**
 * One lending event about an address (the party: the borrower, the account repaid for, the
 * liquidated user), as `chain_logs` holds it: what the borrowing record is computed from.
 */
export interface LendingEventRecord {
  chainId: number;
  /** Lowercase. */
  address: HexString;
  kind: 'borrow' | 'repay' | 'liquidation';
  /** The reserve (for a liquidation, the debt asset), lowercase. */
  asset: HexString;
  /** Base units of the asset (a liquidation: the debt covered). */
  amount: bigint;
  /** Who acted (lowercase): the borrower's caller, the repayer, the liquidator; null when not recorded. */
  actor: HexString | null;
  blockNumber: bigint;
  txIndex: number;
  logIndex: number;
  /** Seconds since the epoch. */
  timestamp: number;
}

/**
 * What a wallet's balances did over the recent past: one net movement of one asset in or out of
 * the wallet in one transaction (self-sends left out). Read back from the current balance, these
 * give the lowest balance the wallet held over the window (money that arrived for a reading counts
 * for little).
 */
export interface BalanceFlowRecord {
  chainId: number;
  /** Lowercase. */
  address: HexString;
  /**
   * `native` (the chain's coin: the value of transactions in and out), a token's contract
   * (ERC-20 transfers in and out), or `collateral:<reserve>` (supplied to / withdrawn from a pool).
   */
  asset: string;
  /** Signed base units: in > 0, out < 0 (net over the transaction). */
  amount: bigint;
  blockNumber: bigint;
  txIndex: number;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** How one wallet dealt with other addresses on one chain (self-sends left out). */
export interface InteractionRecord {
  chainId: number;
  /** Lowercase. */
  address: HexString;
  /** Transactions it sent to another address. */
  sentToOthers: number;
  /** Token transfers between it and another address. */
  transfersWithOthers: number;
  /** Distinct other addresses it sent to or received from (transactions and token transfers; not the zero address). */
  counterparties: number;
  /** UTC calendar months (year × 12 + month − 1) with a transaction or token transfer with another address. */
  activeMonths: number[];
  /** Seconds since the epoch: its latest transaction or token transfer with another address. */
  lastAt: number;
}
