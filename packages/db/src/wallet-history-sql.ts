/**
 * The queries behind a wallet's history as the model reads it (balances over a window, dealings
 * with other addresses). Parameters of both: $1 chain ids (int[]), $2 lowercase addresses
 * (text[]), $3 each chain's last block or null (bigint[], in $1's order).
 */

/**
 * Every chain's window start: the time of its latest indexed block (bounded by $3; the latest
 * completed range's end) less $4 days, so a reading of the past (an index stopped at a block, a
 * bound) reaches back from there.
 */
const WINDOW_BOUNDS = `bound AS (
       SELECT b.chain, b.last_block,
              COALESCE(
                (SELECT max(r.to_block_at) FROM indexer_ranges r
                  WHERE r.chain_id = b.chain AND r.completed_at IS NOT NULL AND (b.last_block IS NULL OR r.to_block <= b.last_block)),
                -- rows written without a range record (a replay of history): the latest block among them
                (SELECT max(t.block_timestamp) FROM chain_transactions t
                  WHERE t.chain_id = b.chain AND (b.last_block IS NULL OR t.block_number <= b.last_block))
              ) - make_interval(days => $4::int) AS since
         FROM unnest($1::int[], $3::bigint[]) AS b(chain, last_block)
     )`;

const IN_BOUND = (alias: string) =>
  `${alias}.chain_id = bound.chain AND (bound.last_block IS NULL OR ${alias}.block_number <= bound.last_block)`;

/**
 * Net movements per (address, asset, transaction) since each chain's window start ($4 days before
 * its latest indexed block): the value of transactions in and out, token transfers in and out,
 * collateral supplied (for the account, whoever paid) and withdrawn. Self-sends are left out.
 * Netted per transaction: a balance inside a transaction is not one anybody can read.
 */
export const BALANCE_FLOWS_SQL = `WITH ${WINDOW_BOUNDS},
     flows AS (
       SELECT t.chain_id, t.to_address AS address, 'native' AS asset, t.value AS amount, t.block_number, t.tx_index, t.block_timestamp AS at
         FROM bound JOIN chain_transactions t ON ${IN_BOUND('t')} AND (bound.since IS NULL OR t.block_timestamp >= bound.since)
        WHERE t.to_address = ANY($2::text[]) AND t.value > 0 AND t.from_address <> t.to_address
       UNION ALL
       SELECT t.chain_id, t.from_address, 'native', -t.value, t.block_number, t.tx_index, t.block_timestamp
         FROM bound JOIN chain_transactions t ON ${IN_BOUND('t')} AND (bound.since IS NULL OR t.block_timestamp >= bound.since)
        WHERE t.from_address = ANY($2::text[]) AND t.value > 0 AND t.to_address IS DISTINCT FROM t.from_address
       UNION ALL
       SELECT l.chain_id, l.counterparty, l.contract, l.amount, l.block_number, l.tx_index, l.block_timestamp
         FROM bound JOIN chain_logs l ON ${IN_BOUND('l')} AND (bound.since IS NULL OR l.block_timestamp >= bound.since)
        WHERE l.kind = 'transfer' AND l.counterparty = ANY($2::text[]) AND l.party <> l.counterparty
       UNION ALL
       SELECT l.chain_id, l.party, l.contract, -l.amount, l.block_number, l.tx_index, l.block_timestamp
         FROM bound JOIN chain_logs l ON ${IN_BOUND('l')} AND (bound.since IS NULL OR l.block_timestamp >= bound.since)
        WHERE l.kind = 'transfer' AND l.party = ANY($2::text[]) AND l.party IS DISTINCT FROM l.counterparty
       UNION ALL
       SELECT l.chain_id, l.party, 'collateral:' || l.asset, CASE WHEN l.kind = 'supply' THEN l.amount ELSE -l.amount END,
              l.block_number, l.tx_index, l.block_timestamp
         FROM bound JOIN chain_logs l ON ${IN_BOUND('l')} AND (bound.since IS NULL OR l.block_timestamp >= bound.since)
        WHERE l.kind IN ('supply', 'withdraw') AND l.party = ANY($2::text[]) AND l.asset IS NOT NULL
     )
     SELECT chain_id, address, asset, sum(amount)::text AS amount, block_number, tx_index, min(at) AS at
       FROM flows
      GROUP BY chain_id, address, asset, block_number, tx_index
     HAVING sum(amount) <> 0
      ORDER BY chain_id, address, asset, block_number, tx_index`;

/**
 * Per (chain, address): its dealings with OTHER addresses over its whole indexed history (bounded
 * by $3): transactions sent to another address, token transfers with another address, the distinct
 * other addresses (the zero address, a mint's or a burn's, is nobody), the UTC months with any of
 * them, the latest. A self-send is no dealing with anybody. A transaction that moved tokens counts
 * by its transfers, not as a dealing with the contract it called: a transfer of USDC to oneself is
 * a call to the USDC contract, and no dealing either.
 */
export const INTERACTIONS_SQL = `WITH bound AS (SELECT b.chain, b.last_block FROM unnest($1::int[], $3::bigint[]) AS b(chain, last_block)),
     touches AS (
       SELECT t.chain_id, t.from_address AS address, t.to_address AS other, t.block_timestamp AS at, 1 AS sent, 0 AS transfer
         FROM bound JOIN chain_transactions t ON ${IN_BOUND('t')}
        WHERE t.from_address = ANY($2::text[]) AND t.to_address IS NOT NULL AND t.to_address <> t.from_address
          AND NOT EXISTS (SELECT 1 FROM chain_logs m WHERE m.chain_id = t.chain_id AND m.tx_hash = t.tx_hash AND m.kind = 'transfer')
       UNION ALL
       SELECT t.chain_id, t.to_address, t.from_address, t.block_timestamp, 0, 0
         FROM bound JOIN chain_transactions t ON ${IN_BOUND('t')}
        WHERE t.to_address = ANY($2::text[]) AND t.from_address <> t.to_address
       UNION ALL
       SELECT l.chain_id, l.party, l.counterparty, l.block_timestamp, 0, 1
         FROM bound JOIN chain_logs l ON ${IN_BOUND('l')}
        WHERE l.kind = 'transfer' AND l.party = ANY($2::text[]) AND l.counterparty IS NOT NULL AND l.counterparty <> l.party
       UNION ALL
       SELECT l.chain_id, l.counterparty, l.party, l.block_timestamp, 0, 1
         FROM bound JOIN chain_logs l ON ${IN_BOUND('l')}
        WHERE l.kind = 'transfer' AND l.counterparty = ANY($2::text[]) AND l.party <> l.counterparty
     )
     SELECT chain_id, address, sum(sent)::int AS sent, sum(transfer)::int AS transfers,
            count(DISTINCT other) FILTER (WHERE other <> '0x0000000000000000000000000000000000000000')::int AS counterparties,
            array_agg(DISTINCT (extract(year FROM at AT TIME ZONE 'UTC') * 12 + extract(month FROM at AT TIME ZONE 'UTC') - 1)::int) AS months,
            max(at) AS last_at
       FROM touches
      GROUP BY chain_id, address
      ORDER BY chain_id, address`;
