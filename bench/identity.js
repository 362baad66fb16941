#!/usr/bin/env node
// `pnpm bench:identity`: GET /api/v2/identity/address/{a}/attestations through the whole stack
// (HTTP → gateway → NATS → identity → Redis, ENS on the devnet's chain 1, the four providers' local
// stubs), cold (the identity cache emptied before the request) and warm (the same request again),
// for the ENS holder (every source answers with data) and for population wallets (most sources
// answer "not found"). The sources are asked at once, so a cold lookup costs the slowest source.
// Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { machineLine, runMain } = require('./support');
const { latencyTable, startReferenceBench, stats } = require('./reference-stack');

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);

async function main() {
  const bench = await startReferenceBench('identity', ['identity'], () => '/api/v2/identity/address/ada.eth/attestations');
  try {
    const { direct, population, world } = bench;
    const holder = world.devnet.state.cast.ens_holder.address;
    const cases = [
      ['the ENS holder (all five sources answer)', () => `/api/v2/identity/address/${holder}/attestations`],
      ['the ENS holder by name', () => '/api/v2/identity/address/ada.eth/attestations'],
    ];
    const rows = [];
    for (const [label, path] of cases) {
      const cold = [];
      const warm = [];
      for (let i = 0; i < SAMPLES; i++) {
        await direct.flush();
        const first = await direct.get(path(i));
        if (first.body.cached !== false) throw new Error(`${label}: the cold request was answered from the cache`);
        const again = await direct.get(path(i));
        if (again.body.cached !== true) throw new Error(`${label}: the warm request was looked up again`);
        cold.push(first.ms);
        warm.push(again.ms);
      }
      rows.push({ label, cold: stats(cold), warm: stats(warm) });
    }
    // a wallet no source knows: 404 (also cached); measured cold only, through the raw endpoint
    const unknown = [];
    for (let i = 0; i < SAMPLES; i++) {
      await direct.flush();
      const t0 = process.hrtime.bigint();
      await fetch(`${direct.url}/api/v2/identity/address/${population[i % population.length]}/attestations`, { headers: direct.headers });
      unknown.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    rows.push({ label: 'population wallets (mostly 404: no source knows them)', cold: stats(unknown) });

    console.log(`\n${machineLine()}`);
    console.log(`devnet chain 1 (ENS) and the providers' local stubs; ${SAMPLES} samples per case, one request at a time\n`);
    console.log(latencyTable(rows));
  } finally {
    await bench.close();
  }
}

runMain(main);
