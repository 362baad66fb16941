import { isoOf, lower } from './activity-deltas';
import type { IndexedLendingMove, IndexedPriceAnswer } from './chain-activity-types';
import type { Db } from './prisma-client';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** The tables a range's market history is written to, and a rollback or a chain reset deletes from. */
export const MARKET_HISTORY_TABLES = ['chain_price_answers', 'chain_lending_moves'] as const;

/** A range's price answers and lending moves; a replayed range inserts nothing (natural keys, ON CONFLICT DO NOTHING). */
export async function insertMarketHistory(
  tx: Tx,
  chainId: number,
  answers: readonly IndexedPriceAnswer[],
  moves: readonly IndexedLendingMove[],
): Promise<void> {
  if (answers.length > 0) {
    await tx.$executeRawUnsafe(
      `INSERT INTO chain_price_answers (chain_id, tx_hash, log_index, block_number, block_timestamp, feed, round_id, answer, updated_at)
       SELECT $1, a.tx_hash, a.log_index, a.block_number, a.block_timestamp, a.feed, a.round_id, a.answer, a.updated_at
       FROM jsonb_to_recordset($2::jsonb)
         AS a(tx_hash text, log_index int, block_number bigint, block_timestamp timestamptz, feed text, round_id numeric,
              answer numeric, updated_at timestamptz)
       ON CONFLICT DO NOTHING`,
      chainId,
      JSON.stringify(
        answers.map((a) => ({
          tx_hash: lower(a.txHash),
          log_index: a.logIndex,
          block_number: a.blockNumber.toString(),
          block_timestamp: isoOf(a.timestamp),
          feed: lower(a.feed),
          round_id: a.roundId.toString(),
          answer: a.answer.toString(),
          updated_at: isoOf(a.updatedAt),
        })),
      ),
    );
  }
  if (moves.length > 0) {
    await tx.$executeRawUnsafe(
      `INSERT INTO chain_lending_moves (chain_id, tx_hash, log_index, asset, block_number, tx_index, block_timestamp, pool, account, supplied, borrowed)
       SELECT $1, m.tx_hash, m.log_index, m.asset, m.block_number, m.tx_index, m.block_timestamp, m.pool, m.account, m.supplied, m.borrowed
       FROM jsonb_to_recordset($2::jsonb)
         AS m(tx_hash text, log_index int, asset text, block_number bigint, tx_index int, block_timestamp timestamptz, pool text,
              account text, supplied numeric, borrowed numeric)
       ON CONFLICT DO NOTHING`,
      chainId,
      JSON.stringify(
        moves.map((m) => ({
          tx_hash: lower(m.txHash),
          log_index: m.logIndex,
          asset: lower(m.asset),
          block_number: m.blockNumber.toString(),
          tx_index: m.txIndex,
          block_timestamp: isoOf(m.timestamp),
          pool: lower(m.pool),
          account: lower(m.account),
          supplied: m.supplied.toString(),
          borrowed: m.borrowed.toString(),
        })),
      ),
    );
  }
}

/** Deletes the market history past `block` (a rollback). */
export async function deleteMarketHistoryAfter(tx: Tx, chainId: number, block: bigint): Promise<void> {
  for (const table of MARKET_HISTORY_TABLES) {
    await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE chain_id = $1 AND block_number > $2`, chainId, block);
  }
}
