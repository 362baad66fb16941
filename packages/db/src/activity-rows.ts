import { ACTIVITY_COLUMNS } from './activity-rebuild';
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

/** A column's name as `ActivityRow` names it (`first_tx_at` → `firstTxAt`). */
export function fieldOfColumn(column: string): string {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The columns of `address_activity` under `ActivityRow`'s names, for raw SQL (`rawRows`): its
 * `int8` blocks come back as strings from the pool, read with `activityRowOf`.
 */
export const ACTIVITY_ROW_COLUMNS = ACTIVITY_COLUMNS.map((column) => `${column} AS "${fieldOfColumn(column)}"`).join(', ');

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
