#!/usr/bin/env node
// `node bench/scale-ranges.js` (issue 37, docs/SCALE.md): the two reads of `indexer_ranges` on
// mainnet's number of ranges, with and without migration 20261202000000_range_end_indexes. Fills a
// throwaway database with 240,000 completed ranges on each of two chains (2.4 × 10⁷ blocks in
// ranges of 100: nothing else), then explains (ANALYZE, BUFFERS) the checkpoints' query and the
// history window's start (in the balance flows' query) as the readers send them, then again with
// the migration's indexes dropped inside a transaction that is rolled back. Needs `pnpm build` and Postgres.
'use strict';
const { Client } = require('pg');
const { machineLine, runMain, throwawayDatabase } = require('./support');
const { readerQueries } = require('./scale-plans');
const { migrate } = require('../packages/db/dist/migrate.js');

const RANGES = 240_000;

async function main() {
  const database = await throwawayDatabase(`credit_bench_ranges_${process.pid}`);
  const db = new Client({ connectionString: database.url });
  try {
    await migrate(database.url);
    await db.connect();
    await db.query(
      `INSERT INTO indexer_ranges (chain_id, from_block, to_block, completed_at, to_block_at)
       SELECT ch, g * 100, g * 100 + 99, now(), timestamp '2020-01-01' + make_interval(secs => g * 1200)
         FROM generate_series(0, $1::int - 1) g, unnest(array[1, 8453]) ch`,
      [RANGES],
    );
    const head = BigInt(RANGES * 100 - 1);
    await db.query(
      `INSERT INTO indexer_checkpoints (chain_id, indexed_to, planned_to, confirmations) VALUES (1, $1, $1, 2), (8453, $1, $1, 2)`,
      [String(head)],
    );
    await db.query('ANALYZE');
    const all = await readerQueries(
      [1, 8453],
      '0x0000000000000000000000000000000000000001',
      new Map([
        [1, head],
        [8453, head],
      ]),
      [],
    );
    const queries = all.filter((q) => q.name === 'checkpoints' || q.name === 'balance flows');
    console.log(`${machineLine()}\n${RANGES} ranges on each of 2 chains\n`);
    console.log('| query | migration indexes | execution ms | buffers | indexer_ranges read by |');
    console.log('|---|---|---:|---:|---|');
    for (const without of [false, true]) {
      await db.query('BEGIN');
      try {
        if (without) await db.query('DROP INDEX indexer_ranges_to_block_idx, indexer_ranges_time_idx');
        for (const q of queries) {
          const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params);
          const text = rows.map((r) => r['QUERY PLAN']).join('\n');
          const ms = /Execution Time: ([\d.]+)/.exec(text)[1];
          const buffers = /Buffers: shared hit=(\d+)/.exec(text)?.[1] ?? '0';
          const scan =
            /(Seq Scan|Index Scan Backward using \w+|Index Scan using \w+|Bitmap Heap Scan) on indexer_ranges[^\n]*rows=(\d+) loops=(\d+)/.exec(
              text,
            );
          const how = scan ? `${scan[1]}: ${scan[2]} rows × ${scan[3]} loops` : '–';
          console.log(`| ${q.name} | ${without ? 'dropped' : 'present'} | ${ms} | ${buffers} | ${how} |`);
        }
      } finally {
        await db.query('ROLLBACK');
      }
    }
  } finally {
    await db.end().catch(() => undefined);
    await database.drop();
  }
}

runMain(main);
