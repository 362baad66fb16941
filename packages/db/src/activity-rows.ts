import type { AddressActivityRecord, HexString } from './chain-activity-types';

/** An `address_activity` row as Prisma or raw SQL returns it, and its record. */
interface ActivityRow {
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
