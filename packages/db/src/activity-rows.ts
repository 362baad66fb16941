import type { AddressActivityRecord, HexString } from './chain-activity-types';

/** An `address_activity` row as Prisma or raw SQL returns it, and its record. */
export interface ActivityRow {
  chainId: number;
  address: string;
  firstTxHash: string;
  firstTxBlock: bigint;
  firstTxIndex: number;
  firstTxAt: Date;
  lastTxHash: string;
  lastTxBlock: bigint;
  lastTxIndex: number;
  lastTxAt: Date;
  txCount: number;
  transferCount: number;
  supplyCount: number;
  firstSupplyAt: Date | null;
  lastSupplyAt: Date | null;
  withdrawCount: number;
  firstWithdrawAt: Date | null;
  lastWithdrawAt: Date | null;
  borrowCount: number;
  firstBorrowAt: Date | null;
  lastBorrowAt: Date | null;
  repayCount: number;
  firstRepayAt: Date | null;
  lastRepayAt: Date | null;
  liquidationCount: number;
  firstLiquidationAt: Date | null;
  lastLiquidationAt: Date | null;
}

/**
 * The columns of `address_activity` under `ActivityRow`'s names, for raw SQL (`rawRows`): its
 * `int8` blocks come back as strings from the pool, read with `activityRowOf`.
 */
export const ACTIVITY_ROW_COLUMNS = [
  ['chain_id', 'chainId'],
  ['address', 'address'],
  ['first_tx_hash', 'firstTxHash'],
  ['first_tx_block', 'firstTxBlock'],
  ['first_tx_index', 'firstTxIndex'],
  ['first_tx_at', 'firstTxAt'],
  ['last_tx_hash', 'lastTxHash'],
  ['last_tx_block', 'lastTxBlock'],
  ['last_tx_index', 'lastTxIndex'],
  ['last_tx_at', 'lastTxAt'],
  ['tx_count', 'txCount'],
  ['transfer_count', 'transferCount'],
  ['supply_count', 'supplyCount'],
  ['first_supply_at', 'firstSupplyAt'],
  ['last_supply_at', 'lastSupplyAt'],
  ['withdraw_count', 'withdrawCount'],
  ['first_withdraw_at', 'firstWithdrawAt'],
  ['last_withdraw_at', 'lastWithdrawAt'],
  ['borrow_count', 'borrowCount'],
  ['first_borrow_at', 'firstBorrowAt'],
  ['last_borrow_at', 'lastBorrowAt'],
  ['repay_count', 'repayCount'],
  ['first_repay_at', 'firstRepayAt'],
  ['last_repay_at', 'lastRepayAt'],
  ['liquidation_count', 'liquidationCount'],
  ['first_liquidation_at', 'firstLiquidationAt'],
  ['last_liquidation_at', 'lastLiquidationAt'],
]
  .map(([column, field]) => `${column} AS "${field}"`)
  .join(', ');

/** A row selected with `ACTIVITY_ROW_COLUMNS`: its blocks (a string or a bigint) as bigints. */
export type RawActivityRow = Omit<ActivityRow, 'firstTxBlock' | 'lastTxBlock'> & {
  firstTxBlock: string | bigint;
  lastTxBlock: string | bigint;
};

export function activityRowOf(row: RawActivityRow): ActivityRow {
  return { ...row, firstTxBlock: BigInt(row.firstTxBlock), lastTxBlock: BigInt(row.lastTxBlock) };
}

export function toActivityRecord(row: ActivityRow): AddressActivityRecord {
  return {
    chainId: row.chainId,
    address: row.address as HexString,
    firstTransaction: {
      hash: row.firstTxHash as HexString,
      blockNumber: row.firstTxBlock,
      txIndex: row.firstTxIndex,
      timestamp: row.firstTxAt,
    },
    lastTransaction: { hash: row.lastTxHash as HexString, blockNumber: row.lastTxBlock, txIndex: row.lastTxIndex, timestamp: row.lastTxAt },
    transactionCount: row.txCount,
    transferCount: row.transferCount,
    supply: { count: row.supplyCount, first: row.firstSupplyAt, last: row.lastSupplyAt },
    withdraw: { count: row.withdrawCount, first: row.firstWithdrawAt, last: row.lastWithdrawAt },
    borrow: { count: row.borrowCount, first: row.firstBorrowAt, last: row.lastBorrowAt },
    repay: { count: row.repayCount, first: row.firstRepayAt, last: row.lastRepayAt },
    liquidation: { count: row.liquidationCount, first: row.firstLiquidationAt, last: row.lastLiquidationAt },
  };
}
