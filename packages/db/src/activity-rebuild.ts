import type { Db } from './prisma-client';

type Executor = Pick<Db, '$executeRawUnsafe'>;

const LENDING = ['supply', 'withdraw', 'borrow', 'repay', 'liquidation'];

/** The `address_activity` columns the aggregation fills, in its SELECT's order. */
export const ACTIVITY_COLUMNS = [
  'chain_id',
  'address',
  'first_tx_hash',
  'first_tx_block',
  'first_tx_index',
  'first_tx_at',
  'last_tx_hash',
  'last_tx_block',
  'last_tx_index',
  'last_tx_at',
  'tx_count',
  'transfer_count',
  ...LENDING.flatMap((k) => [`${k}_count`, `first_${k}_at`, `last_${k}_at`]),
];

/**
 * The activity of some addresses on one chain, aggregated from the raw rows (`chain_transactions`,
 * `chain_logs`) up to block `$3` (inclusive; pass null for all): exactly what `activityDeltas`
 * adds up incrementally, so the index after a rollback, and the index as of a past block, equal
 * one that never saw the later blocks:
 * - a transaction touches its sender (who also gets a sent transaction) and its recipient;
 * - an event touches its party and its counterparty; a transfer counts for both (once when they are
 *   the same address); a lending event counts for its party only, first / last by block time;
 * - first / last transaction are the least / greatest (block, index in block) touched.
 * Parameters: $1 chain id, $2 lowercase addresses (text[]), $3 last block or null.
 */
export const ACTIVITY_AGGREGATE_SQL = `WITH touched AS (
       SELECT from_address AS address, tx_hash, block_number, tx_index, block_timestamp AS at, 1 AS sent, 0 AS transfers, NULL::text AS kind
         FROM chain_transactions WHERE chain_id = $1 AND from_address = ANY($2::text[]) AND ($3::bigint IS NULL OR block_number <= $3::bigint)
       UNION ALL
       SELECT to_address, tx_hash, block_number, tx_index, block_timestamp, 0, 0, NULL
         FROM chain_transactions WHERE chain_id = $1 AND to_address = ANY($2::text[]) AND ($3::bigint IS NULL OR block_number <= $3::bigint)
       UNION ALL
       SELECT party, tx_hash, block_number, tx_index, block_timestamp, 0, (kind = 'transfer')::int,
              CASE WHEN kind = 'transfer' THEN NULL ELSE kind::text END
         FROM chain_logs WHERE chain_id = $1 AND party = ANY($2::text[]) AND ($3::bigint IS NULL OR block_number <= $3::bigint)
       UNION ALL
       SELECT counterparty, tx_hash, block_number, tx_index, block_timestamp, 0, (kind = 'transfer' AND counterparty <> party)::int, NULL
         FROM chain_logs WHERE chain_id = $1 AND counterparty = ANY($2::text[]) AND ($3::bigint IS NULL OR block_number <= $3::bigint)
     )
     SELECT $1::int AS chain_id, address,
       (array_agg(tx_hash ORDER BY block_number, tx_index))[1] AS first_tx_hash,
       (array_agg(block_number ORDER BY block_number, tx_index))[1] AS first_tx_block,
       (array_agg(tx_index ORDER BY block_number, tx_index))[1] AS first_tx_index,
       (array_agg(at ORDER BY block_number, tx_index))[1] AS first_tx_at,
       (array_agg(tx_hash ORDER BY block_number DESC, tx_index DESC))[1] AS last_tx_hash,
       (array_agg(block_number ORDER BY block_number DESC, tx_index DESC))[1] AS last_tx_block,
       (array_agg(tx_index ORDER BY block_number DESC, tx_index DESC))[1] AS last_tx_index,
       (array_agg(at ORDER BY block_number DESC, tx_index DESC))[1] AS last_tx_at,
       sum(sent)::int AS tx_count, sum(transfers)::int AS transfer_count,
       ${LENDING.flatMap((k) => [
         `count(*) FILTER (WHERE kind = '${k}')::int AS ${k}_count`,
         `min(at) FILTER (WHERE kind = '${k}') AS first_${k}_at`,
         `max(at) FILTER (WHERE kind = '${k}') AS last_${k}_at`,
       ]).join(',\n       ')}
     FROM touched GROUP BY address ORDER BY address`;

/**
 * Rebuilds the `address_activity` rows of some addresses on one chain from the raw rows that are
 * left, after a rollback deleted some of those (`ACTIVITY_AGGREGATE_SQL`). An address with no raw
 * row left loses its activity row.
 */
export async function rebuildActivity(db: Executor, chainId: number, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  const wanted = [...new Set(addresses)].sort();
  await db.$executeRawUnsafe(`DELETE FROM address_activity WHERE chain_id = $1 AND address = ANY($2::text[])`, chainId, wanted);
  await db.$executeRawUnsafe(
    `INSERT INTO address_activity (${ACTIVITY_COLUMNS.join(', ')}) ${ACTIVITY_AGGREGATE_SQL}`,
    chainId,
    wanted,
    null,
  );
}
