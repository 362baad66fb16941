#!/usr/bin/env node
// `pnpm bench:cold-cpu`: the CPU each service spends on a cold score, over many requests one after
// another (`BENCH_SAMPLES`, default 150), for a finer figure than `bench:scoring`'s 15 samples of
// /proc's 10 ms ticks. `BENCH_MODE=single` (default) asks GET /api/v2/score/address/{a};
// `BENCH_MODE=aggregate` the aggregated score of 10. Each request follows an emptied cache (wallet,
// identity, history), on the reference world. The stack run is the working directory's checkout
// (built), so another build is measured by running this file with that checkout as the working
// directory. Postgres is every backend summed. Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = process.cwd();
const { startReferenceBench } = require(path.join(root, 'bench/reference-stack'));
const { machineLine, pidsNamed, runMain } = require(path.join(root, 'bench/support'));

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 150);
const MODE = process.env.BENCH_MODE ?? 'single';
if (MODE !== 'single' && MODE !== 'aggregate') throw new Error(`BENCH_MODE must be single or aggregate, not ${MODE}`);

/** A process's user + system CPU so far, in clock ticks (10 ms); 0 once it has exited. */
function ticks(pid) {
  if (!fs.existsSync(`/proc/${pid}/stat`)) return 0;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

runMain(async () => {
  const bench = await startReferenceBench('coldcpu', ['scoring'], (p) => `/api/v2/score/address/${p[0]}`, { counting: false });
  try {
    const { population, direct } = bench;
    const pathOf = (i) =>
      MODE === 'single'
        ? `/api/v2/score/address/${population[i % population.length]}`
        : `/api/v2/score/?address=${population.slice((i * 10) % 290, ((i * 10) % 290) + 10).join(',')}`;
    const before = Object.fromEntries(Object.entries(direct.pids).map(([app, pid]) => [app, ticks(pid)]));
    // Postgres: every backend (one that starts during the run counts from zero)
    const postgresBefore = new Map(pidsNamed('postgres').map((pid) => [pid, ticks(pid)]));
    let elapsed = 0;
    for (let i = 0; i < SAMPLES; i++) {
      await direct.flush();
      elapsed += (await direct.get(pathOf(i))).ms;
    }
    const cpu = Object.entries(direct.pids).map(([app, pid]) => `${app} ${(((ticks(pid) - before[app]) * 10) / SAMPLES).toFixed(1)} ms`);
    const postgres = pidsNamed('postgres').reduce((sum, pid) => sum + ticks(pid) - (postgresBefore.get(pid) ?? 0), 0);
    cpu.push(`postgres ${((postgres * 10) / SAMPLES).toFixed(1)} ms`);
    console.log(`${machineLine()}\ncheckout: ${root}`);
    console.log(
      `${MODE}, ${SAMPLES} cold requests one after another: mean ${(elapsed / SAMPLES).toFixed(1)} ms; CPU a request: ${cpu.join(', ')}`,
    );
  } finally {
    await bench.close();
  }
});
