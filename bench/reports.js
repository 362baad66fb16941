#!/usr/bin/env node
// `pnpm bench:reports`: the production report endpoints through the whole stack (HTTP → gateway →
// NATS → reports → Redis / Postgres / the devnet's chains, and the identity service with the
// providers' local stubs): JSON-RPC round trips per chain of a
// cold full report and of cold aggregated reports of 10 and 100 addresses, and latency cold (the
// wallet and identity caches emptied before the request) and warm (the same request again) for the full, the
// enhanced (never cached: warm reads the chains again) and the aggregated-10 report. Runs on the
// reference world with the real indexer. Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { machineLine, runMain } = require('./support');
const { latencyTable, startReferenceBench, stats, tripLines } = require('./reference-stack');

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);

async function main() {
  const bench = await startReferenceBench('reports', ['reports'], (population) => `/api/v2/report/address/${population[0]}`);
  try {
    const { population, counted, counting, direct, world } = bench;
    const aggregate = (n, i) => `/api/v2/report/?address=${population.slice((i * n) % (300 - n), ((i * n) % (300 - n)) + n).join(',')}`;
    const full = (i) => `/api/v2/report/address/${population[i % population.length]}`;
    const enhancedBody = JSON.stringify({ name: 'bench', total_asset_usd: 1000, count_transactions: 3 });

    const trips = {};
    for (const [label, path] of [
      ['full report', full(0)],
      ['aggregated report of 10', aggregate(10, 0)],
      ['aggregated report of 100', aggregate(100, 1)],
    ]) {
      await counting.flush();
      counted.reset();
      const { body } = await counting.get(path);
      const analysed = Array.isArray(body.report.address) ? body.report.address.length : 1;
      trips[label] = { counts: counted.counts(), methods: counted.methods(), note: `${analysed} analysed` };
    }

    const cases = [
      ['full report', (i) => [full(i)], true],
      ['enhanced report', (i) => [full(i), { method: 'POST', body: enhancedBody }], false],
      ['aggregated report of 10', (i) => [aggregate(10, i)], true],
    ];
    const rows = [];
    for (const [label, request, cached] of cases) {
      const cold = [];
      const warm = [];
      for (let i = 0; i < SAMPLES; i++) {
        await direct.flush();
        const before = Date.now();
        const first = await direct.get(...request(i));
        // a cold reply carries a fresh reading time: proof that it was read, not cached
        if (Date.parse(first.body.report.timestamp) < before - 1) throw new Error(`${label}: the cold request was answered from the cache`);
        const again = await direct.get(...request(i));
        const same = again.body.report.timestamp === first.body.report.timestamp;
        if (same !== cached) throw new Error(`${label}: the warm request was ${cached ? 'read again' : 'answered from the cache'}`);
        cold.push(first.ms);
        warm.push(again.ms);
      }
      rows.push({ label: cached ? label : `${label} (never cached: "warm" reads again)`, cold: stats(cold), warm: stats(warm) });
    }

    console.log(`\n${machineLine()}`);
    console.log(
      `reference world, chains ${world.registry.map((c) => c.id).join(' and ')}; ${SAMPLES} samples per case, one request at a time; cold = the wallet and identity caches emptied before the request\n`,
    );
    console.log(latencyTable(rows));
    console.log('\nJSON-RPC round trips per chain, cold:');
    console.log(tripLines(trips));
  } finally {
    await bench.close();
  }
}

runMain(main);
