#!/usr/bin/env node
// `pnpm bench:indexer`: indexer throughput on the devnet. Starts a freshly seeded devnet (the
// default 300-wallet population), a throwaway database and BullMQ prefix, runs the indexer from
// an empty checkpoint until every chain is indexed up to head − confirmations, and reports
// blocks/s, transactions/s and logs/s. Needs `pnpm build`, the local Postgres and Redis.
'use strict';
const { join } = require('node:path');
const { Client } = require('pg');
const { machineLine, runMain, throwawayDatabase } = require('./support');

const ROOT = join(__dirname, '..');
const req = (p) => require(join(ROOT, p));
const CONFIRMATIONS = 2;
const POPULATION = Number(process.env.BENCH_POPULATION ?? 300);

async function main() {
  const { startDevnet } = req('packages/devnet/dist/devnet.js');
  const { seededDevnetOptions } = req('packages/devnet/dist/seed/seed-world.js');
  const { registryFromDevnetState } = req('packages/chain/dist/devnet-registry.js');
  const { migrate } = req('packages/db/dist/migrate.js');
  const { indexerConfig } = req('apps/indexer/dist/config.js');
  const { startIndexer } = req('apps/indexer/dist/indexer.js');

  const devnet = await startDevnet(seededDevnetOptions({ seed: 'bench', populationSize: POPULATION }));
  const database = await throwawayDatabase(`credit_bench_indexer_${process.pid}`);
  const databaseUrl = database.url;
  let indexer;
  try {
    await migrate(databaseUrl);
    const scoring = devnet.state.chains.filter((c) => c.role === 'scoring').map((c) => c.id);
    const targets = new Map();
    for (const c of devnet.chains.filter((x) => scoring.includes(x.spec.id))) {
      const res = await fetch(c.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      });
      targets.set(c.spec.id, BigInt((await res.json()).result) - BigInt(CONFIRMATIONS));
    }
    const config = indexerConfig({
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      CHAINS: JSON.stringify(registryFromDevnetState(devnet.state, { chainIds: scoring })),
      CONFIRMATIONS: String(CONFIRMATIONS),
      QUEUE_PREFIX: `bench${process.pid}`,
      POLL_INTERVAL_MS: '100',
      HEALTH_PORT: '0',
    });
    const started = process.hrtime.bigint();
    indexer = await startIndexer(config, { logger: { info() {}, warn() {}, error: (m, f) => console.error(m, f ?? '') } });
    for (;;) {
      const done = await Promise.all(
        [...targets].map(async ([id, target]) => ((await indexer.repository.checkpoint(id))?.indexedTo ?? -1n) >= target),
      );
      if (done.every(Boolean)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const counts = new Client({ connectionString: databaseUrl });
    await counts.connect();
    const one = async (sql) => Number((await counts.query(sql)).rows[0].n);
    const txs = await one('SELECT count(*) AS n FROM chain_transactions');
    const logs = await one('SELECT count(*) AS n FROM chain_logs');
    const addresses = await one('SELECT count(*) AS n FROM address_activity');
    await counts.end();
    const blocks = [...targets.values()].reduce((a, b) => a + Number(b) + 1, 0);
    console.log(machineLine());
    console.log(
      `config: ${scoring.length} chains, RANGE_SIZE ${config.RANGE_SIZE}, CONCURRENCY ${config.CONCURRENCY}, population ${POPULATION}\n`,
    );
    console.log('| blocks | transactions | logs | addresses | seconds | blocks/s | transactions/s | logs/s |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${blocks} | ${txs} | ${logs} | ${addresses} | ${seconds.toFixed(2)} | ${Math.round(blocks / seconds)} | ${Math.round(txs / seconds)} | ${Math.round(logs / seconds)} |`,
    );
  } finally {
    await indexer?.close();
    await devnet.stop();
    await database.drop();
  }
}

runMain(main);
