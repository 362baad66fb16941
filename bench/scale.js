#!/usr/bin/env node
// `pnpm bench:scale` (issue 37, docs/SCALE.md): the reference world (300 wallets) and the scale
// world (the reference world with BENCH_SCALE_WALLETS generated wallets around it, 100,000 by
// default, seeded in about 22 minutes here: docs/SCALE.md; seeded once and saved in $TMPDIR/credit-scale-world-<n>, as the reference world is in
// $TMPDIR/credit-reference-world), each in the same run: indexed by the real indexer from an empty
// database (blocks/s, transactions/s, logs/s), the chain tables' rows and sizes, a single score
// cold and warm through the whole stack (the same population addresses in both worlds; in the
// scale world also generated wallets and the hubs that fund them), and the plans of the queries
// that read one address's data (bench/scale-plans.js), flagging sequential scans over chain tables.
// BENCH_SAMPLES (15) samples per case. Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { mkdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { machineLine, runMain } = require('./support');
const { latencyTable, startReferenceBench, stats } = require('./reference-stack');
const { explainAll, forcedLines, planTable, readerQueries, sizeTable, tableSizes } = require('./scale-plans');

/** The indexes of migration 20261202000000_range_end_indexes: dropped (never committed) to show the plans before it. */
const MIGRATION_INDEXES = ['indexer_ranges_to_block_idx', 'indexer_ranges_time_idx'];

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));
const WALLETS = Number(process.env.BENCH_SCALE_WALLETS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);

/** The scale world of `WALLETS` bulk wallets, seeded once and saved (its own key and directory). */
async function startScaleDevnet() {
  const { startDevnet } = dist('packages/devnet/dist/devnet.js');
  const { scaleDevnetOptions } = dist('packages/devnet/dist/seed/scale-world.js');
  const stateDir = join(tmpdir(), `credit-scale-world-${WALLETS}`);
  mkdirSync(stateDir, { recursive: true });
  const started = Date.now();
  const devnet = await startDevnet({ ...scaleDevnetOptions(WALLETS), stateDir });
  console.error(`scale world ${devnet.reused ? 'loaded' : 'seeded and saved'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return devnet;
}

/** Index figures from the indexed database: blocks (to each checkpoint), transactions, logs. */
async function indexFigures(databaseUrl, seconds) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const one = async (sql) => Number((await db.query(sql)).rows[0].n);
    const blocks = await one('SELECT sum(indexed_to + 1) AS n FROM indexer_checkpoints');
    const transactions = await one('SELECT count(*) AS n FROM chain_transactions');
    const logs = await one('SELECT count(*) AS n FROM chain_logs');
    const addresses = await one('SELECT count(*) AS n FROM address_activity');
    return { blocks, transactions, logs, addresses, seconds };
  } finally {
    await db.end();
  }
}

/** A cold (every cache emptied first) and a warm single score of `address` on `stack`: [cold ms, warm ms]. */
async function coldAndWarm(stack, address) {
  const path = `/api/v2/score/address/${address}`;
  await stack.flush();
  const before = Date.now();
  const first = await stack.get(path);
  if (Date.parse(first.body.timestamp) < before - 1) throw new Error(`${path}: the cold request was answered from the cache`);
  const again = await stack.get(path);
  return [first.ms, again.ms];
}

/** One world started and indexed from an empty database, with its index figures and table sizes. */
async function startWorld(label, name, devnet, portOffset) {
  const bench = await startReferenceBench(name, ['scoring'], (population) => `/api/v2/score/address/${population[0]}`, {
    devnet,
    counting: false,
    indexTimeoutMs: 60 * 60_000,
    portOffset,
  });
  try {
    const index = await indexFigures(bench.database.url, bench.indexSeconds);
    const sizes = await tableSizes(bench.database.url);
    return { label, bench, index, sizes, rows: [] };
  } catch (error) {
    await bench.close();
    throw error;
  }
}

/** The plans of one address's reads in `w`'s database. */
async function plansOf(w, address) {
  const { world, database } = w.bench;
  const chainIds = world.registry.map((c) => c.id);
  const db = new Client({ connectionString: database.url });
  await db.connect();
  const upTo = new Map(
    (await db.query('SELECT chain_id, indexed_to FROM indexer_checkpoints')).rows.map((r) => [r.chain_id, BigInt(r.indexed_to)]),
  );
  await db.end();
  const feeds = Object.values(world.devnet.state.contracts[String(chainIds[0])].priceFeeds).map((f) => f.toLowerCase());
  const subject = address.toLowerCase();
  w.planSets = [
    ...(w.planSets ?? []),
    { subject, plans: await explainAll(database.url, await readerQueries(chainIds, subject, upTo, feeds), MIGRATION_INDEXES) },
  ];
}

async function main() {
  const { bulkWalletAddress, bulkHubAddress } = dist('packages/devnet/dist/seed/bulk-population.js');
  const seed = 'credit-devnet';
  const worlds = [];
  try {
    const small = await startWorld('reference world', 'scalesmall', undefined, 0);
    worlds.push(small);
    const big = await startWorld(`scale world (${WALLETS})`, 'scalebig', startScaleDevnet, 2);
    worlds.push(big);
    // The population's single scores in both worlds, alternating (the order swapped every sample),
    // so that the machine's noise falls on both alike.
    const samples = worlds.map(() => ({ cold: [], warm: [] }));
    const population = small.bench.population;
    // warm-up, not counted: the services' first requests (JIT, connection pools)
    for (const w of worlds) for (let j = 1; j <= 3; j++) await coldAndWarm(w.bench.direct, population[population.length - j]);
    for (let i = 0; i < SAMPLES; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const [cold, warm] = await coldAndWarm(worlds[k].bench.direct, population[(i * 7) % population.length]);
        samples[k].cold.push(cold);
        samples[k].warm.push(warm);
      }
    }
    worlds.forEach((w, k) =>
      w.rows.push({ label: `${w.label}: single score, population`, cold: stats(samples[k].cold), warm: stats(samples[k].warm) }),
    );
    // The scale world's own: generated wallets (every 997th: both chains, the whole population) and hubs.
    const chains = big.bench.world.devnet.state.chains.filter((c) => c.role === 'scoring').map((c) => c.id);
    const wallets = Array.from({ length: SAMPLES }, (_, i) => bulkWalletAddress(seed, (i * 997) % WALLETS));
    const hubs = chains.flatMap((id) => [0, 1, 2].map((h) => bulkHubAddress(seed, id, h)));
    for (const [label, addresses] of [
      ['generated wallets', wallets],
      ['hubs (each funds thousands)', hubs],
    ]) {
      const cold = [];
      const warm = [];
      for (const address of addresses) {
        const [c, w] = await coldAndWarm(big.bench.direct, address);
        cold.push(c);
        warm.push(w);
      }
      big.rows.push({ label: `${big.label}: single score, ${label}`, cold: stats(cold), warm: stats(warm) });
    }
    await plansOf(small, population[0]);
    await plansOf(big, wallets[0]);
    await plansOf(big, hubs[0]);
  } finally {
    for (const w of worlds) await w.bench.close();
  }

  const [small, big] = worlds;
  console.log(`\n${machineLine()}`);
  console.log(`BENCH_SCALE_WALLETS=${WALLETS}, ${SAMPLES} samples per case, one request at a time; cold = every cache emptied first\n`);
  console.log('Indexing from an empty database (the real indexer, its defaults):\n');
  console.log('| world | blocks | transactions | logs | addresses | seconds | blocks/s | transactions/s | logs/s |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const w of worlds) {
    const i = w.index;
    const per = (n) => Math.round(n / i.seconds);
    console.log(
      `| ${w.label} | ${i.blocks} | ${i.transactions} | ${i.logs} | ${i.addresses} | ${i.seconds.toFixed(1)} | ${per(i.blocks)} | ${per(i.transactions)} | ${per(i.logs)} |`,
    );
  }
  console.log('\nChain tables (rows: count(*); sizes: pg_table_size, pg_indexes_size, pg_total_relation_size):\n');
  console.log(sizeTable(worlds.map((w) => ({ label: w.label, sizes: w.sizes }))));
  for (const w of worlds)
    console.log(
      `\n${w.label}: database ${(w.sizes.databaseBytes / 2 ** 20).toFixed(1)} MiB; indexes:`,
      w.sizes.tables.flatMap((t) => t.indexes.map((x) => `${x.name} ${(x.bytes / 2 ** 20).toFixed(1)} MiB`)).join(', '),
    );
  console.log('\nScores through the whole stack (HTTP → gateway → NATS → scoring → Redis / Postgres / chains):\n');
  console.log(latencyTable(worlds.flatMap((w) => w.rows)));
  const ratio = big.rows[0].cold.p50 / small.rows[0].cold.p50;
  console.log(`\ncold single score p50, population, scale ÷ reference: ${ratio.toFixed(2)}×`);
  const sets = worlds.flatMap((w) => w.planSets.map((set) => ({ label: w.label, ...set })));
  for (const set of sets) {
    console.log(`\nPlans of one address's reads, ${set.label} (address ${set.subject}):\n`);
    console.log(planTable(set.label, set.plans));
    const forced = forcedLines(set.label, set.plans);
    if (forced) console.log(`\nThe scans of chain tables once sequential scans are priced out (enable_seqscan = off):\n\n${forced}`);
  }
  const scale = sets.filter((set) => set.label === big.label).flatMap((set) => set.plans.map((p) => ({ ...p, subject: set.subject })));
  for (const p of [...scale].sort((a, b) => b.ms - a.ms).slice(0, 3))
    console.log(`\nSlowest in the scale world: ${p.name} (address ${p.subject})\n\n\`\`\`\n${p.text}\n\`\`\``);
  const flagged = sets.flatMap((set) =>
    set.plans.filter((p) => p.unavoidable.length).map((p) => `${set.label}: ${p.name} (${p.unavoidable.join(', ')})`),
  );
  console.log(`\nsequential scans over chain tables with no index to use instead: ${flagged.length ? flagged.join('; ') : 'none'}`);
}

runMain(main);
