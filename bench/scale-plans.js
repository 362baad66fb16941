'use strict';
// What `bench/scale.js` measures in the database: table and index sizes with row counts, and the
// plans (EXPLAIN (ANALYZE, BUFFERS)) of the queries that read one address's data, taken from the
// readers themselves (packages/db: each reader is handed a recording client, and every query it
// would send is explained with the same parameters), flagging any sequential scan over a table
// that grows with the chain, and showing what the plan does once sequential scans are priced out,
// with and without a migration's indexes.
const { join } = require('node:path');
const { Client } = require('pg');

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));

/** The tables that grow with the chain (a sequential scan over one of them is a defect). */
const CHAIN_TABLES = [
  'chain_transactions',
  'chain_logs',
  'address_activity',
  'chain_lending_moves',
  'chain_price_answers',
  'ens_name_events',
  'indexer_ranges',
];

/** Rows, table bytes, index bytes and total bytes of each chain table, and each index's bytes. */
async function tableSizes(databaseUrl) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const tables = [];
    for (const name of CHAIN_TABLES) {
      const rows = Number((await db.query(`SELECT count(*) AS n FROM ${name}`)).rows[0].n);
      const { rows: s } = await db.query(
        `SELECT pg_table_size($1::regclass) AS t, pg_indexes_size($1::regclass) AS i, pg_total_relation_size($1::regclass) AS total`,
        [name],
      );
      const { rows: indexes } = await db.query(
        `SELECT indexrelid::regclass::text AS name, pg_relation_size(indexrelid) AS bytes FROM pg_index WHERE indrelid = $1::regclass ORDER BY 1`,
        [name],
      );
      tables.push({
        name,
        rows,
        tableBytes: Number(s[0].t),
        indexBytes: Number(s[0].i),
        totalBytes: Number(s[0].total),
        indexes: indexes.map((x) => ({ name: x.name, bytes: Number(x.bytes) })),
      });
    }
    const { rows: d } = await db.query('SELECT pg_database_size(current_database()) AS n');
    return { tables, databaseBytes: Number(d[0].n) };
  } finally {
    await db.end();
  }
}

const mib = (bytes) => (bytes / 2 ** 20).toFixed(1);

/** `| table | rows | table MiB | indexes MiB | total MiB | bytes/row |` for each world. */
function sizeTable(worlds) {
  const lines = ['| world | table | rows | table MiB | indexes MiB | total MiB | total bytes/row |', '|---|---|---:|---:|---:|---:|---:|'];
  for (const { label, sizes } of worlds)
    for (const t of sizes.tables)
      lines.push(
        `| ${label} | ${t.name} | ${t.rows} | ${mib(t.tableBytes)} | ${mib(t.indexBytes)} | ${mib(t.totalBytes)} | ${t.rows ? Math.round(t.totalBytes / t.rows) : '–'} |`,
      );
  return lines.join('\n');
}

/** pg parameters from a reader's: bigints as text (arrays too). */
const param = (v) => (typeof v === 'bigint' ? v.toString() : Array.isArray(v) ? v.map(param) : v);

/**
 * The queries the wallet readers send for `address` (chain ids `chainIds`, indexed to `upTo` per
 * chain), recorded from the readers: [{ name, sql, params }]. The reads Prisma's model API makes
 * (`address_activity` by address) are spelled out as the SQL it sends.
 */
async function readerQueries(chainIds, address, upTo, feeds) {
  const { ChainActivityReader } = dist('packages/db/dist/chain-activity-reader.js');
  const { MarketHistoryReader } = dist('packages/db/dist/market-history-reader.js');
  const { EnsNamesReader } = dist('packages/db/dist/ens-names-reader.js');
  const queries = [];
  let name = '';
  const db = {
    $queryRawUnsafe: async (sql, ...params) => {
      queries.push({ name, sql, params: params.map(param) });
      return [];
    },
  };
  const record = async (label, run) => {
    name = label;
    await run().catch(() => undefined); // the readers' mapping of an empty answer may throw: only the SQL is wanted
  };
  const activity = new ChainActivityReader(db);
  const market = new MarketHistoryReader(db);
  const names = new EnsNamesReader(db);
  const first = chainIds[0];
  const bound = new Map(chainIds.map((id) => [id, upTo.get(id)]));
  await record('checkpoints', () => activity.checkpoints(chainIds));
  await record('lending events', () => activity.lendingEventsOf(chainIds, [address]));
  await record('balance flows', () => activity.balanceFlowsOf(chainIds, [address]));
  await record('interactions', () => activity.interactionsOf(chainIds, [address]));
  await record('balance flows as of a block', () => activity.balanceFlowsOf(chainIds, [address], bound));
  await record('activity as of a block', () => activity.activityAsOfBlock(first, [address], upTo.get(first)));
  await record('market: incomplete chains', () => market.incompleteChains(chainIds));
  await record('market: address blocks', () => market.addressBlocks(first, address, upTo.get(first)));
  const day = 86_400;
  const head = Math.floor(Date.UTC(2026, 5, 1) / 1000);
  await record('market: blocks before 90 day ends', () =>
    market.blocksBefore(
      first,
      Array.from({ length: 90 }, (_, i) => head - i * day),
      upTo.get(first),
    ),
  );
  await record('market: price answers', () => market.priceAnswers(first, feeds, upTo.get(first)));
  await record('market: lending moves', () => market.lendingMoves(first, [address], upTo.get(first)));
  await record('names owned', () => names.ownedNames(first, [address]));
  await record('names held', () => names.heldNames(first, [address]));
  queries.push({
    name: 'activity of addresses (Prisma findMany)',
    sql: 'SELECT * FROM address_activity WHERE address IN ($1) ORDER BY address ASC, chain_id ASC',
    params: [address],
  });
  return queries;
}

/** The chain tables a plan's text scans sequentially. */
const seqScansIn = (text) => [
  ...new Set([...text.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]).filter((t) => CHAIN_TABLES.includes(t))),
];

/**
 * The scans of chain tables in a plan's text, one line each: the node (its index, when it uses one),
 * the rows it returned per loop, the loops, and the rows its filter removed.
 */
function chainScans(text) {
  const lines = text.split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const node = /(Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan|Index Scan Backward)( using (\w+))? on (\w+)/.exec(line);
    if (!node || !CHAIN_TABLES.includes(node[4])) return;
    const actual = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/.exec(line);
    const removed = lines
      .slice(i + 1, i + 4)
      .map((l) => /Rows Removed by Filter: (\d+)/.exec(l)?.[1])
      .find(Boolean);
    out.push(
      `${node[1]}${node[3] ? ` using ${node[3]}` : ''} on ${node[4]}: ${actual ? `${actual[1]} rows × ${actual[2]} loops` : 'never executed'}${removed ? `, ${removed} removed by filter` : ''}`,
    );
  });
  return out;
}

/**
 * Each query's plan: execution ms, the chain tables it scans sequentially, and the plan's text.
 * A sequential scan the planner chose over a usable index (a table still small here) is no
 * defect; one it cannot avoid is. So each query with one is explained again with sequential scans
 * priced out (`enable_seqscan = off`, in a transaction rolled back): `forced` lists its chain-table
 * scans, `unavoidable` the tables still scanned sequentially; and again without the indexes named
 * in `withoutIndexes` (dropped in that transaction, never committed): `forcedBefore`, the plan
 * before the migration that made them.
 */
async function explainAll(databaseUrl, queries, withoutIndexes = []) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const planText = (rows) => rows.map((r) => r['QUERY PLAN']).join('\n');
  const inRollback = async (statements, q) => {
    await db.query('BEGIN');
    try {
      for (const sql of statements) await db.query(sql);
      return planText((await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params)).rows);
    } finally {
      await db.query('ROLLBACK');
    }
  };
  try {
    await db.query('ANALYZE');
    const out = [];
    for (const q of queries) {
      const text = planText((await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params)).rows);
      const ms = Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? NaN);
      const seqScans = seqScansIn(text);
      const plan = { name: q.name, ms, seqScans, unavoidable: [], forced: [], forcedBefore: [], text };
      if (seqScans.length > 0) {
        const forced = await inRollback(['SET LOCAL enable_seqscan = off'], q);
        plan.unavoidable = seqScansIn(forced);
        plan.forced = chainScans(forced);
        if (withoutIndexes.length > 0)
          plan.forcedBefore = chainScans(
            await inRollback(
              [`DROP INDEX IF EXISTS ${withoutIndexes.map((x) => `"${x}"`).join(', ')}`, 'SET LOCAL enable_seqscan = off'],
              q,
            ),
          );
      }
      out.push(plan);
    }
    return out;
  } finally {
    await db.end();
  }
}

function planTable(label, plans) {
  const lines = [
    `| ${label}: query | execution ms | sequential scans over chain tables | without an index to use instead |`,
    '|---|---:|---|---|',
  ];
  const list = (tables) => (tables.length ? tables.join(', ') : 'none');
  for (const p of plans)
    lines.push(
      `| ${p.name} | ${p.ms.toFixed(2)} | ${list(p.seqScans)} | ${p.unavoidable.length ? `**${list(p.unavoidable)}**` : 'none'} |`,
    );
  return lines.join('\n');
}

/** Per query with a sequential scan: its chain-table scans priced out of it, with the indexes and without. */
function forcedLines(label, plans) {
  const lines = [];
  for (const p of plans.filter((x) => x.seqScans.length > 0)) {
    // only the scans of the tables the default plan scanned sequentially
    const of = (scans) => scans.filter((l) => p.seqScans.some((t) => l.includes(` on ${t}:`))).join('; ');
    const after = of(p.forced);
    const before = of(p.forcedBefore);
    lines.push(`- ${label}, ${p.name}: ${after}${before && before !== after ? ` (without the migration's indexes: ${before})` : ''}`);
  }
  return lines.join('\n');
}

module.exports = { CHAIN_TABLES, tableSizes, sizeTable, readerQueries, explainAll, planTable, forcedLines };
