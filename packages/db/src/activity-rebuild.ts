import type { Db } from './prisma-client';

type Executor = Pick<Db, '$executeRawUnsafe'>;

/**
 * Rebuilds the `address_activity` rows of some addresses on one chain from the raw rows that are
 * left (`chain_transactions`, `chain_logs`), after a rollback deleted some of those. It computes
 * exactly what `activityDeltas` adds up incrementally, so a rolled-back index equals one that never
 * saw the removed blocks:
 * - a transaction touches its sender (who also gets a sent transaction) and its recipient;
 * - an event touches its party and its counterparty; a transfer counts for both (once when they are
 *   the same address); a lending event counts for its party only, first / last by block time;
 * - first / last transaction are the least / greatest (block, index in block) touched.
 * An address with no raw row left loses its activity row.
 */
export async function rebuildActivity(db: Executor, chainId: number, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  const wanted = [...new Set(addresses)].sort();
  await db.$executeRawUnsafe(`DELETE FROM address_activity WHERE chain_id = $1 AND address = ANY($2::text[])`, chainId, wanted);
  const lending = ['supply', 'withdraw', 'borrow', 'repay', 'liquidation'];
  const eventColumns = lending.flatMap((k) => [`${k}_count`, `first_${k}_at`, `last_${k}_at`]);
  const eventAggregates = lending.flatMap((k) => [
    `count(*) FILTER (WHERE kind = '${k}')::int`,
    `min(at) FILTER (WHERE kind = '${k}')`,
    `max(at) FILTER (WHERE kind = '${k}')`,
  ]);
  await db.$executeRawUnsafe(
    `WITH touched AS (
       SELECT from_address AS address, tx_hash, block_number, tx_index, block_timestamp AS at, 1 AS sent, 0 AS transfers, NULL::text AS kind
         FROM chain_transactions WHERE chain_id = $1 AND from_address = ANY($2::text[])
       UNION ALL
       SELECT to_address, tx_hash, block_number, tx_index, block_timestamp, 0, 0, NULL
         FROM chain_transactions WHERE chain_id = $1 AND to_address = ANY($2::text[])
       UNION ALL
       SELECT party, tx_hash, block_number, tx_index, block_timestamp, 0, (kind = 'transfer')::int,
              CASE WHEN kind = 'transfer' THEN NULL ELSE kind::text END
         FROM chain_logs WHERE chain_id = $1 AND party = ANY($2::text[])
       UNION ALL
       SELECT counterparty, tx_hash, block_number, tx_index, block_timestamp, 0, (kind = 'transfer' AND counterparty <> party)::int, NULL
         FROM chain_logs WHERE chain_id = $1 AND counterparty = ANY($2::text[])
     )
     INSERT INTO address_activity (chain_id, address,
       first_tx_hash, first_tx_block, first_tx_index, first_tx_at,
       last_tx_hash, last_tx_block, last_tx_index, last_tx_at,
       tx_count, transfer_count, ${eventColumns.join(', ')})
     SELECT $1, address,
       (array_agg(tx_hash ORDER BY block_number, tx_index))[1],
       (array_agg(block_number ORDER BY block_number, tx_index))[1],
       (array_agg(tx_index ORDER BY block_number, tx_index))[1],
       (array_agg(at ORDER BY block_number, tx_index))[1],
       (array_agg(tx_hash ORDER BY block_number DESC, tx_index DESC))[1],
       (array_agg(block_number ORDER BY block_number DESC, tx_index DESC))[1],
       (array_agg(tx_index ORDER BY block_number DESC, tx_index DESC))[1],
       (array_agg(at ORDER BY block_number DESC, tx_index DESC))[1],
       sum(sent)::int, sum(transfers)::int, ${eventAggregates.join(', ')}
     FROM touched GROUP BY address ORDER BY address`,
    chainId,
    wanted,
  );
}
