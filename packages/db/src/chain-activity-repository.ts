import { activityDeltas, isoOf, lower, upsertActivity } from './activity-deltas';
import { rebuildActivity } from './activity-rebuild';
import { ChainActivityReader } from './chain-activity-reader';
import type {
  BlockRange,
  HexString,
  IndexedBlockRef,
  IndexedEnsEvent,
  PlanOptions,
  RangeData,
  RollbackResult,
  WriteRangeResult,
} from './chain-activity-types';
import type { Db } from './prisma-client';
import { MARKET_HISTORY_TABLES, deleteMarketHistoryAfter, insertMarketHistory } from './market-history-rows';

// The records' types, for the callers that import them from here.
export * from './chain-activity-types';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

const CHAIN_TABLES = [
  'address_activity',
  'chain_logs',
  'ens_name_events',
  ...MARKET_HISTORY_TABLES,
  'chain_transactions',
  'indexer_ranges',
  'indexer_checkpoints',
] as const;

async function deleteChainRows(tx: Tx, chainId: number): Promise<void> {
  for (const table of CHAIN_TABLES) await tx.$executeRawUnsafe(`DELETE FROM ${table} WHERE chain_id = $1`, chainId);
}

/** The range's name-service events; a replayed range inserts nothing (natural key, ON CONFLICT DO NOTHING). */
async function insertEnsEvents(tx: Tx, chainId: number, events: readonly IndexedEnsEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO ens_name_events (chain_id, tx_hash, log_index, block_number, block_timestamp, kind, contract, node, name, owner)
     SELECT $1, e.tx_hash, e.log_index, e.block_number, e.block_timestamp, e.kind::ens_event_kind, e.contract, e.node, e.name, e.owner
     FROM jsonb_to_recordset($2::jsonb)
       AS e(tx_hash text, log_index int, block_number bigint, block_timestamp timestamptz, kind text, contract text, node text, name text, owner text)
     ON CONFLICT DO NOTHING`,
    chainId,
    JSON.stringify(
      events.map((e) => ({
        tx_hash: lower(e.txHash),
        log_index: e.logIndex,
        block_number: e.blockNumber.toString(),
        block_timestamp: isoOf(e.timestamp),
        kind: e.kind,
        contract: lower(e.contract),
        node: lower(e.node),
        name: e.name,
        owner: lower(e.owner),
      })),
    ),
  );
}

/**
 * The indexer's repository: its writes to its tables (checkpoints and planned ranges, the
 * transactions and events it read, the per-address, per-chain activity they add up to, rollbacks),
 * and every read (ChainActivityReader).
 *
 * Idempotency and concurrency (why a replayed or concurrently processed range changes nothing):
 * - every transaction and event row has its natural key as primary key — (chain_id, tx_hash) and
 *   (chain_id, tx_hash, log_index) — and is inserted `ON CONFLICT DO NOTHING RETURNING`, so each
 *   statement returns exactly the rows *it* added. Of two transactions inserting the same key, the
 *   second waits on the first's unique-index entry and, once that commits, skips the row;
 * - `address_activity` is changed only by the rows an insert returned, in the same database
 *   transaction: counts are added (`count + delta`), first / last are min / max by (block, index).
 *   So every event contributes to the aggregates exactly once, however often its range is written,
 *   and a rolled-back write contributes nothing;
 * - concurrent writers of one address serialise on its `address_activity` row (the upsert's row
 *   lock; the increment reads the committed value), and every statement takes its rows in key
 *   order, so overlapping writers lock in the same order and do not deadlock each other;
 * - the range is marked completed in that same transaction, and the checkpoint only moves over a
 *   contiguous run of completed ranges, so a crash at any point leaves either the whole range or
 *   none of it, and a restart resumes from the checkpoint.
 */
export class ChainActivityRepository extends ChainActivityReader {
  /**
   * Ties a chain id's indexed rows to one chain, by its genesis hash. The first call records it
   * (`new`); later calls with the same hash change nothing (`same`). A different hash means the
   * chain behind the id was replaced (a reseeded devnet, a reset testnet): every row indexed for
   * that id is deleted in the same transaction and indexing starts over (`reset`) — rows of two
   * different chains are never mixed.
   */
  async ensureChainIdentity(chainId: number, genesisHash: string): Promise<'new' | 'same' | 'reset'> {
    const hash = lower(genesisHash);
    return this.db.$transaction(async (tx) => {
      const inserted = await tx.$executeRawUnsafe(
        `INSERT INTO indexer_chains (chain_id, genesis_hash) VALUES ($1, $2) ON CONFLICT (chain_id) DO NOTHING`,
        chainId,
        hash,
      );
      if (inserted === 1) return 'new';
      const [row] = await tx.$queryRawUnsafe<{ genesis_hash: string }[]>(
        `SELECT genesis_hash FROM indexer_chains WHERE chain_id = $1 FOR UPDATE`,
        chainId,
      );
      if (row!.genesis_hash === hash) return 'same';
      await deleteChainRows(tx, chainId);
      await tx.$executeRawUnsafe(
        `UPDATE indexer_chains SET genesis_hash = $2, market_history_complete = true, updated_at = now() WHERE chain_id = $1`,
        chainId,
        hash,
      );
      return 'reset';
    });
  }

  /**
   * Deletes every row indexed for a chain id, in one transaction: indexing starts over, and what it
   * indexes again carries the whole market history.
   */
  async resetChain(chainId: number): Promise<void> {
    await this.db.$transaction(async (tx) => {
      await deleteChainRows(tx, chainId);
      await tx.$executeRawUnsafe(
        `UPDATE indexer_chains SET market_history_complete = true, updated_at = now() WHERE chain_id = $1`,
        chainId,
      );
    });
  }

  /**
   * The last blocks of the chain's completed ranges that carry a recorded hash, newest first: the
   * points a restart can check against the chain to find where a changed history forks.
   */
  async indexedBlockRefs(chainId: number): Promise<IndexedBlockRef[]> {
    const rows = await this.db.$queryRawUnsafe<{ to_block: bigint; to_block_hash: string }[]>(
      `SELECT r.to_block, r.to_block_hash FROM indexer_ranges r
       JOIN indexer_checkpoints c ON c.chain_id = r.chain_id
       WHERE r.chain_id = $1 AND r.completed_at IS NOT NULL AND r.to_block_hash IS NOT NULL AND r.to_block <= c.indexed_to
       ORDER BY r.to_block DESC`,
      chainId,
    );
    return rows.map((r) => ({ block: r.to_block, hash: r.to_block_hash as HexString }));
  }

  /**
   * Forgets everything indexed after `block` on one chain, in one transaction: its transactions,
   * events and ranges go, the activity of every address they touched is rebuilt from the rows left,
   * and the checkpoint (indexed and planned) moves back to `block`. The blocks after it are then
   * planned and indexed again from the chain as it is now. Used when the chain's history changed
   * after `block` (a reorganisation; a devnet reloaded from an earlier save).
   */
  async rollbackTo(chainId: number, block: bigint): Promise<RollbackResult> {
    return this.db.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe(`SELECT chain_id FROM indexer_checkpoints WHERE chain_id = $1 FOR UPDATE`, chainId);
        const touched = await tx.$queryRawUnsafe<{ address: string }[]>(
          `SELECT from_address AS address FROM chain_transactions WHERE chain_id = $1 AND block_number > $2
           UNION SELECT to_address FROM chain_transactions WHERE chain_id = $1 AND block_number > $2 AND to_address IS NOT NULL
           UNION SELECT party FROM chain_logs WHERE chain_id = $1 AND block_number > $2
           UNION SELECT counterparty FROM chain_logs WHERE chain_id = $1 AND block_number > $2 AND counterparty IS NOT NULL`,
          chainId,
          block,
        );
        const deletedTransactions = await tx.$executeRawUnsafe(
          `DELETE FROM chain_transactions WHERE chain_id = $1 AND block_number > $2`,
          chainId,
          block,
        );
        const deletedLogs = await tx.$executeRawUnsafe(`DELETE FROM chain_logs WHERE chain_id = $1 AND block_number > $2`, chainId, block);
        await tx.$executeRawUnsafe(`DELETE FROM ens_name_events WHERE chain_id = $1 AND block_number > $2`, chainId, block);
        await deleteMarketHistoryAfter(tx, chainId, block);
        await tx.$executeRawUnsafe(`DELETE FROM indexer_ranges WHERE chain_id = $1 AND to_block > $2`, chainId, block);
        await tx.$executeRawUnsafe(
          `UPDATE indexer_checkpoints SET indexed_to = LEAST(indexed_to, $2), planned_to = LEAST(planned_to, $2), updated_at = now()
           WHERE chain_id = $1`,
          chainId,
          block,
        );
        const addresses = touched.map((t) => t.address);
        await rebuildActivity(tx, chainId, addresses);
        const [cp] = await tx.$queryRawUnsafe<{ indexed_to: bigint }[]>(
          `SELECT indexed_to FROM indexer_checkpoints WHERE chain_id = $1`,
          chainId,
        );
        return { indexedTo: cp?.indexed_to ?? block, deletedTransactions, deletedLogs, addresses: addresses.length };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  }

  /**
   * Plans ranges of at most `rangeSize` blocks from the end of the last planned one up to `upTo`
   * (and no more than `maxPending` uncompleted at once). The checkpoint row is locked while
   * planning, so concurrent followers never plan a block twice. Returns the new ranges.
   */
  async planRanges(options: PlanOptions): Promise<BlockRange[]> {
    const { chainId, startBlock, upTo, rangeSize, maxPending } = options;
    const confirmations = options.confirmations ?? 0;
    return this.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(
        `INSERT INTO indexer_checkpoints (chain_id, indexed_to, planned_to, confirmations) VALUES ($1, $2, $2, $3)
         ON CONFLICT (chain_id) DO UPDATE SET confirmations = EXCLUDED.confirmations
         WHERE indexer_checkpoints.confirmations IS DISTINCT FROM EXCLUDED.confirmations`,
        chainId,
        startBlock - 1n,
        confirmations,
      );
      const [cp] = await tx.$queryRawUnsafe<{ planned_to: bigint }[]>(
        `SELECT planned_to FROM indexer_checkpoints WHERE chain_id = $1 FOR UPDATE`,
        chainId,
      );
      const [{ n: pending } = { n: 0 }] = await tx.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM indexer_ranges WHERE chain_id = $1 AND completed_at IS NULL`,
        chainId,
      );
      const ranges: BlockRange[] = [];
      let from = cp!.planned_to + 1n;
      while (from <= upTo && pending + ranges.length < maxPending) {
        const to = from + BigInt(rangeSize) - 1n < upTo ? from + BigInt(rangeSize) - 1n : upTo;
        ranges.push({ chainId, fromBlock: from, toBlock: to });
        from = to + 1n;
      }
      if (ranges.length === 0) return ranges;
      await tx.$executeRawUnsafe(
        `INSERT INTO indexer_ranges (chain_id, from_block, to_block)
         SELECT $1, r.from_block, r.to_block FROM jsonb_to_recordset($2::jsonb) AS r(from_block bigint, to_block bigint)`,
        chainId,
        JSON.stringify(ranges.map((r) => ({ from_block: r.fromBlock.toString(), to_block: r.toBlock.toString() }))),
      );
      await tx.$executeRawUnsafe(
        `UPDATE indexer_checkpoints SET planned_to = $2, updated_at = now() WHERE chain_id = $1`,
        chainId,
        ranges[ranges.length - 1]!.toBlock,
      );
      return ranges;
    });
  }

  /** Planned ranges not completed yet, oldest first. */
  async pendingRanges(chainId: number, limit = 10_000): Promise<BlockRange[]> {
    const rows = await this.db.indexerRange.findMany({
      where: { chainId, completedAt: null },
      orderBy: { fromBlock: 'asc' },
      take: limit,
    });
    return rows.map((r) => ({ chainId, fromBlock: r.fromBlock, toBlock: r.toBlock }));
  }

  /**
   * Refreshes the planner's statistics of the tables a range writes (ANALYZE). Until then a table
   * filled by a backfill looks empty to Postgres, and the wallet reading's queries get plans made
   * for an empty table (docs/BENCHMARKS.md, "Plans made on empty statistics").
   */
  async analyzeIndexTables(): Promise<void> {
    await this.db.$executeRawUnsafe('ANALYZE chain_transactions, chain_logs, address_activity, chain_lending_moves, chain_price_answers');
  }

  /**
   * Moves `indexed_to` over the contiguous run of completed ranges that follows it; returns the
   * new value (null when the chain has no checkpoint).
   */
  async advanceCheckpoint(chainId: number): Promise<bigint | null> {
    return this.db.$transaction(async (tx) => {
      const [cp] = await tx.$queryRawUnsafe<{ indexed_to: bigint }[]>(
        `SELECT indexed_to FROM indexer_checkpoints WHERE chain_id = $1 FOR UPDATE`,
        chainId,
      );
      if (!cp) return null;
      const done = await tx.$queryRawUnsafe<{ from_block: bigint; to_block: bigint; completed: boolean }[]>(
        `SELECT from_block, to_block, completed_at IS NOT NULL AS completed FROM indexer_ranges
         WHERE chain_id = $1 AND to_block > $2 ORDER BY from_block`,
        chainId,
        cp.indexed_to,
      );
      let indexedTo = cp.indexed_to;
      for (const range of done) {
        if (!range.completed || range.from_block > indexedTo + 1n) break;
        if (range.to_block > indexedTo) indexedTo = range.to_block;
      }
      if (indexedTo !== cp.indexed_to) {
        await tx.$executeRawUnsafe(
          `UPDATE indexer_checkpoints SET indexed_to = $2, updated_at = now() WHERE chain_id = $1`,
          chainId,
          indexedTo,
        );
      }
      return indexedTo;
    });
  }

  /**
   * Writes one block range's transactions and events, the activity they add, and marks the range
   * completed, in one database transaction. `beforeCommit` runs last inside it (a worker being
   * killed throws there, and nothing of the range is kept).
   */
  async writeRange(data: RangeData, beforeCommit?: () => void): Promise<WriteRangeResult> {
    const { chainId } = data;
    const txs = [...data.transactions].sort((a, b) => (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0));
    const logs = [...data.logs].sort((a, b) => (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : a.logIndex - b.logIndex));
    return this.db.$transaction(
      async (tx) => {
        const insertedTxs =
          txs.length === 0
            ? []
            : await tx.$queryRawUnsafe<{ tx_hash: string }[]>(
                `INSERT INTO chain_transactions (chain_id, tx_hash, block_number, tx_index, block_timestamp, from_address, to_address, value)
                 SELECT $1, t.tx_hash, t.block_number, t.tx_index, t.block_timestamp, t.from_address, t.to_address, t.value
                 FROM jsonb_to_recordset($2::jsonb)
                   AS t(tx_hash text, block_number bigint, tx_index int, block_timestamp timestamptz, from_address text, to_address text,
                        value numeric, ord bigint)
                 ORDER BY t.ord
                 ON CONFLICT DO NOTHING
                 RETURNING tx_hash`,
                chainId,
                JSON.stringify(
                  txs.map((t, ord) => ({
                    ord,
                    tx_hash: lower(t.txHash),
                    block_number: t.blockNumber.toString(),
                    tx_index: t.txIndex,
                    block_timestamp: isoOf(t.timestamp),
                    from_address: lower(t.from),
                    to_address: t.to === null ? null : lower(t.to),
                    value: (t.value ?? 0n).toString(),
                  })),
                ),
              );
        const insertedLogs =
          logs.length === 0
            ? []
            : await tx.$queryRawUnsafe<{ tx_hash: string; log_index: number }[]>(
                `INSERT INTO chain_logs (chain_id, tx_hash, log_index, block_number, tx_index, block_timestamp, kind, contract, party, counterparty, asset, amount)
                 SELECT $1, l.tx_hash, l.log_index, l.block_number, l.tx_index, l.block_timestamp, l.kind::chain_event_kind,
                        l.contract, l.party, l.counterparty, l.asset, l.amount
                 FROM jsonb_to_recordset($2::jsonb)
                   AS l(tx_hash text, log_index int, block_number bigint, tx_index int, block_timestamp timestamptz, kind text,
                        contract text, party text, counterparty text, asset text, amount numeric, ord bigint)
                 ORDER BY l.ord
                 ON CONFLICT DO NOTHING
                 RETURNING tx_hash, log_index`,
                chainId,
                JSON.stringify(
                  logs.map((l, ord) => ({
                    ord,
                    tx_hash: lower(l.txHash),
                    log_index: l.logIndex,
                    block_number: l.blockNumber.toString(),
                    tx_index: l.txIndex,
                    block_timestamp: isoOf(l.timestamp),
                    kind: l.kind,
                    contract: lower(l.contract),
                    party: lower(l.party),
                    counterparty: l.counterparty === null ? null : lower(l.counterparty),
                    asset: l.asset === null ? null : lower(l.asset),
                    amount: l.amount.toString(),
                  })),
                ),
              );

        await insertEnsEvents(tx, chainId, data.ensEvents ?? []);
        await insertMarketHistory(tx, chainId, data.priceAnswers ?? [], data.lendingMoves ?? []);

        const newTxs = new Set(insertedTxs.map((r) => r.tx_hash));
        const newLogs = new Set(insertedLogs.map((r) => `${r.tx_hash}:${r.log_index}`));
        const deltas = activityDeltas(
          txs.filter((t) => newTxs.has(lower(t.txHash))),
          logs.filter((l) => newLogs.has(`${lower(l.txHash)}:${l.logIndex}`)),
        );
        if (deltas.length > 0) await upsertActivity(tx, chainId, deltas);

        await tx.$executeRawUnsafe(
          `UPDATE indexer_ranges SET completed_at = now(), to_block_hash = $4, to_block_at = $5::timestamptz
           WHERE chain_id = $1 AND from_block = $2 AND to_block = $3 AND completed_at IS NULL`,
          chainId,
          data.fromBlock,
          data.toBlock,
          data.toBlockHash === undefined ? null : lower(data.toBlockHash),
          data.toBlockTimestamp === undefined ? null : isoOf(data.toBlockTimestamp),
        );
        beforeCommit?.();
        return { insertedTransactions: insertedTxs.length, insertedLogs: insertedLogs.length, addresses: deltas.length };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  }
}
