#!/usr/bin/env node
// `pnpm bench:scoring`: latency of the production score endpoints through the whole stack
// (HTTP → gateway → NATS → scoring → Redis / Postgres / the devnet's chains), cold (the wallet
// cache emptied before each request) and warm (the same request again), for a single score, an
// aggregated score of 10 addresses and a batch of 100; and the JSON-RPC round trips per chain of a
// cold batch of 10 and of 100. Runs on the reference world (docs/MODEL.md) with the real indexer.
// Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { machineLine, runMain } = require('./support');
const { latencyTable, startReferenceBench, stats, tripLines } = require('./reference-stack');

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);

async function main() {
  const bench = await startReferenceBench('scoring', ['scoring'], (population) => `/api/v2/score/address/${population[0]}`);
  try {
    const { population, counted, world } = bench;
    const countingStack = bench.counting;
    const directStack = bench.direct;

    const single = (i) => `/api/v2/score/address/${population[i % population.length]}`;
    const aggregate = (i) => `/api/v2/score/?address=${population.slice((i * 10) % 290, ((i * 10) % 290) + 10).join(',')}`;
    const batch = (i) => `/api/v2/score/batch/?address=${population.slice((i * 100) % 200, ((i * 100) % 200) + 100).join(',')}`;

    // Round trips per chain of a cold batch of 10 and of 100.
    const trips = {};
    for (const [label, path] of [
      ['batch of 10', `/api/v2/score/batch/?address=${population.slice(0, 10).join(',')}`],
      ['batch of 100', batch(0)],
    ]) {
      await countingStack.flush();
      counted.reset();
      const { body } = await countingStack.get(path);
      trips[label] = { counts: counted.counts(), methods: counted.methods(), note: `${body.count} scored` };
    }

    const rows = [];
    for (const [label, path] of [
      ['single score', single],
      ['aggregated score of 10', aggregate],
      ['batch of 100', batch],
    ]) {
      const cold = [];
      const warm = [];
      // A cold reply must carry a fresh calculation time: proof that it was computed, not cached.
      const computedAt = (body) => Date.parse(body.timestamp ?? body.scores[0].timestamp);
      for (let i = 0; i < SAMPLES; i++) {
        await directStack.flush();
        const before = Date.now();
        const first = await directStack.get(path(i));
        if (computedAt(first.body) < before - 1) throw new Error(`${label}: the cold request was answered from the cache`);
        const again = await directStack.get(path(i));
        if (computedAt(again.body) !== computedAt(first.body)) throw new Error(`${label}: the warm request was recomputed`);
        cold.push(first.ms);
        warm.push(again.ms);
      }
      rows.push({ label, cold: stats(cold), warm: stats(warm) });
    }

    console.log(`\n${machineLine()}`);
    console.log(
      `reference world (docs/MODEL.md), chains ${world.registry.map((c) => c.id).join(' and ')}; ${SAMPLES} samples per case, one request at a time; cold = the wallet cache emptied before the request\n`,
    );
    console.log(latencyTable(rows));
    console.log('\nJSON-RPC round trips per chain, cold:');
    console.log(tripLines(trips));
  } finally {
    await bench.close();
  }
}

runMain(main);
