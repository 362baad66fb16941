import { lower } from './activity-deltas';
import type { HexString } from './chain-activity-types';
import type { Db } from './prisma-client';

/** A price feed's answer as indexed (`chain_price_answers`). */
export interface PriceAnswerRecord {
  feed: HexString;
  blockNumber: bigint;
  logIndex: number;
  roundId: bigint;
  answer: bigint;
  /** Unix seconds. */
  updatedAt: number;
}

/** A change of an account's supplied and borrowed units of one reserve (`chain_lending_moves`). */
export interface LendingMoveRecord {
  pool: HexString;
  account: HexString;
  asset: HexString;
  blockNumber: bigint;
  supplied: bigint;
  borrowed: bigint;
}

/** The last indexed block before a moment: the chain's state at the moment is its state after that block. */
export interface DayEndBlock {
  /** The moment asked for (unix seconds, exclusive). */
  before: number;
  /** Null when nothing was indexed before it. */
  block: bigint | null;
  /** Unix seconds of `block`. */
  timestamp: number | null;
}

/**
 * What a score's history reads of the past beyond the activity tables (issue 38): the blocks that
 * end each day, the feeds' answers and the accounts' lending moves. Each in one query, bounded by
 * the index's checkpoint (`upTo`), so nothing past what is indexed without a gap is read.
 */
export class MarketHistoryReader {
  constructor(private readonly db: Db) {}

  /** The chains among `chainIds` indexed before their market history was (to be indexed again: `index:reset`). */
  async incompleteChains(chainIds: readonly number[]): Promise<number[]> {
    const rows = await this.db.$queryRawUnsafe<{ chain_id: number }[]>(
      `SELECT chain_id FROM indexer_chains WHERE chain_id = ANY($1::int[]) AND NOT market_history_complete ORDER BY chain_id`,
      [...chainIds],
    );
    return rows.map((r) => r.chain_id);
  }

  /**
   * The blocks (ascending) up to `upTo` in which the address has any indexed row: a transaction
   * from or to it, an event with it as party or counterparty. Its activity as of a block is its
   * activity as of the last of these at or before it, so a history queries it once per such block.
   */
  async addressBlocks(chainId: number, address: string, upTo: bigint): Promise<bigint[]> {
    const rows = await this.db.$queryRawUnsafe<{ block_number: bigint }[]>(
      `SELECT block_number FROM chain_transactions WHERE chain_id = $1 AND from_address = $2 AND block_number <= $3
       UNION SELECT block_number FROM chain_transactions WHERE chain_id = $1 AND to_address = $2 AND block_number <= $3
       UNION SELECT block_number FROM chain_logs WHERE chain_id = $1 AND party = $2 AND block_number <= $3
       UNION SELECT block_number FROM chain_logs WHERE chain_id = $1 AND counterparty = $2 AND block_number <= $3
       ORDER BY 1`,
      chainId,
      lower(address),
      upTo,
    );
    return rows.map((r) => r.block_number);
  }

  /** For each moment, the newest indexed transaction's block before it (an index lookup each, `chain_transactions_time_idx`). */
  async blocksBefore(chainId: number, moments: readonly number[], upTo: bigint): Promise<DayEndBlock[]> {
    if (moments.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<{ before: number; block_number: bigint | null; at: Date | null }[]>(
      `SELECT m.before, t.block_number, t.block_timestamp AS at
         FROM unnest($2::int[]) AS m(before)
         LEFT JOIN LATERAL (
           SELECT block_number, block_timestamp FROM chain_transactions
            WHERE chain_id = $1 AND block_timestamp < to_timestamp(m.before) AND block_number <= $3
            ORDER BY block_timestamp DESC, block_number DESC
            LIMIT 1
         ) t ON true
        ORDER BY m.before`,
      chainId,
      [...moments],
      upTo,
    );
    return rows.map((r) => ({
      before: r.before,
      block: r.block_number,
      timestamp: r.at === null ? null : Math.floor(r.at.getTime() / 1000),
    }));
  }

  /** Every answer of the feeds up to block `upTo`, in chain order. */
  async priceAnswers(chainId: number, feeds: readonly string[], upTo: bigint): Promise<PriceAnswerRecord[]> {
    if (feeds.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<
      { feed: string; block_number: bigint; log_index: number; round_id: string; answer: string; updated_at: Date }[]
    >(
      `SELECT feed, block_number, log_index, round_id::text, answer::text, updated_at FROM chain_price_answers
        WHERE chain_id = $1 AND feed = ANY($2::text[]) AND block_number <= $3
        ORDER BY feed, block_number, log_index`,
      chainId,
      [...new Set(feeds.map(lower))],
      upTo,
    );
    return rows.map((r) => ({
      feed: r.feed as HexString,
      blockNumber: r.block_number,
      logIndex: r.log_index,
      roundId: BigInt(r.round_id),
      answer: BigInt(r.answer),
      updatedAt: Math.floor(r.updated_at.getTime() / 1000),
    }));
  }

  /** Every lending move of the accounts up to block `upTo`, in chain order. */
  async lendingMoves(chainId: number, accounts: readonly string[], upTo: bigint): Promise<LendingMoveRecord[]> {
    if (accounts.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<
      { pool: string; account: string; asset: string; block_number: bigint; supplied: string; borrowed: string }[]
    >(
      `SELECT pool, account, asset, block_number, supplied::text, borrowed::text FROM chain_lending_moves
        WHERE chain_id = $1 AND account = ANY($2::text[]) AND block_number <= $3
        ORDER BY account, block_number, tx_index, log_index`,
      chainId,
      [...new Set(accounts.map(lower))],
      upTo,
    );
    return rows.map((r) => ({
      pool: r.pool as HexString,
      account: r.account as HexString,
      asset: r.asset as HexString,
      blockNumber: r.block_number,
      supplied: BigInt(r.supplied),
      borrowed: BigInt(r.borrowed),
    }));
  }
}
