#!/usr/bin/env node
// `pnpm bench:scoring`: latency of the production score endpoints through the whole stack
// (HTTP → gateway → NATS → scoring → Redis / Postgres / the devnet's chains), cold (the wallet
// cache emptied before each request) and warm (the same request again), for a single score, an
// aggregated score of 10 addresses and a batch of 100; and the JSON-RPC round trips per chain of a
// cold batch of 10 and of 100; and the score history of 90 and 365 days, cold and warm. Runs on
// the reference world (docs/MODEL.md) with the real indexer.
// BENCH_BASELINE=<another checkout, built> runs that checkout's gateway, scoring and identity on the
// same world too, their samples alternating with this build's, so the two compare in one run.
// Then where a cold request's time goes: the same cold requests on a third stack that exports
// every span (OTLP, to a receiver in this process), summed by stage (`bench/span-recorder.js`).
// Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { randomBytes } = require('node:crypto');
const { cpuTicks, machineLine, pidsNamed, runMain } = require('./support');
const { latencyTable, startReferenceBench, stats, tripLines } = require('./reference-stack');
const { startSpanRecorder, stageBreakdown } = require('./span-recorder');

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);

/** The servers every stack shares, each summed over its processes (Postgres: every backend). */
const SHARED = ['postgres', 'anvil', 'redis-server', 'nats-server'];

/** The pids of the shared servers now (read before a sample's first reading: pgrep's own CPU is outside it). */
function sharedPids() {
  return Object.fromEntries(SHARED.map((name) => [name, pidsNamed(name)]));
}

/** CPU used so far (ms): this process (the client and the providers' stubs), each app of `stack`, each shared server. */
function cpuNow(stack, shared) {
  const own = process.cpuUsage();
  const out = { "the bench (client, providers' stubs)": (own.user + own.system) / 1000 };
  for (const [app, pid] of Object.entries(stack.pids)) out[app] = (cpuTicks(pid) ?? 0) * 10;
  for (const [name, pids] of Object.entries(shared)) out[name] = pids.reduce((sum, pid) => sum + (cpuTicks(pid) ?? 0), 0) * 10;
  return out;
}

/** `after − before` added into `into`, per process. */
function addCpu(into, before, after) {
  for (const [name, ms] of Object.entries(after)) into[name] = (into[name] ?? 0) + ms - (before[name] ?? 0);
}

async function main() {
  const recorder = await startSpanRecorder();
  const bench = await startReferenceBench('scoring', ['scoring'], (population) => `/api/v2/score/address/${population[0]}`, {
    tracedTo: recorder.url,
    baseline: process.env.BENCH_BASELINE,
  });
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
    const cpuRows = [];
    const targets = [{ suffix: '', stack: directStack }];
    if (bench.baseline) targets.push({ suffix: ` (baseline ${process.env.BENCH_BASELINE})`, stack: bench.baseline });
    for (const [label, path] of [
      ['single score', single],
      ['aggregated score of 10', aggregate],
      ['batch of 100', batch],
    ]) {
      const samples = targets.map(() => ({ cold: [], warm: [], cpu: {} }));
      // A cold reply must carry a fresh calculation time: proof that it was computed, not cached.
      const computedAt = (body) => Date.parse(body.timestamp ?? body.scores[0].timestamp);
      for (let i = 0; i < SAMPLES; i++) {
        // each target in turn for every sample, the order swapped every other sample
        const order = i % 2 === 0 ? targets.map((_, t) => t) : targets.map((_, t) => targets.length - 1 - t);
        for (const t of order) {
          const { stack } = targets[t];
          await stack.flush();
          const before = Date.now();
          const shared = sharedPids(); // Postgres backends come and go
          const cpuBefore = cpuNow(stack, shared);
          const first = await stack.get(path(i));
          addCpu(samples[t].cpu, cpuBefore, cpuNow(stack, shared));
          if (computedAt(first.body) < before - 1) throw new Error(`${label}: the cold request was answered from the cache`);
          const again = await stack.get(path(i));
          if (computedAt(again.body) !== computedAt(first.body)) throw new Error(`${label}: the warm request was recomputed`);
          samples[t].cold.push(first.ms);
          samples[t].warm.push(again.ms);
        }
      }
      targets.forEach((target, t) =>
        rows.push({ label: `${label}${target.suffix}`, cold: stats(samples[t].cold), warm: stats(samples[t].warm) }),
      );
      cpuRows.push({ label, perTarget: samples.map((sample) => sample.cpu) });
    }

    // The score history. Cold: every cache emptied, so the current score is read and every past
    // day rebuilt from the index; warm: the same request again (the score's verdict and every past
    // day's point from the cache). On the baseline too when it has the route (alternating as above).
    const historyTargets = [];
    for (const target of targets) {
      const probe = await target.stack.get(`/api/v2/score/address/${population[0]}/history?days=1`).catch(() => undefined);
      if (probe !== undefined) historyTargets.push(target);
    }
    for (const days of [90, 365]) {
      const samples = historyTargets.map(() => ({ cold: [], warm: [] }));
      for (let i = 0; i < SAMPLES; i++) {
        const path = `/api/v2/score/address/${population[i % population.length]}/history?days=${days}`;
        const order = i % 2 === 0 ? historyTargets.map((_, t) => t) : historyTargets.map((_, t) => historyTargets.length - 1 - t);
        for (const t of order) {
          const { stack } = historyTargets[t];
          await stack.flush();
          const first = await stack.get(path);
          const again = await stack.get(path);
          if (JSON.stringify(again.body) !== JSON.stringify(first.body))
            throw new Error(`history of ${days} days: the warm answer differs`);
          samples[t].cold.push(first.ms);
          samples[t].warm.push(again.ms);
        }
      }
      historyTargets.forEach((target, t) =>
        rows.push({ label: `score history of ${days} days${target.suffix}`, cold: stats(samples[t].cold), warm: stats(samples[t].warm) }),
      );
    }

    // The breakdown: each case's cold requests again on the traced stack, each in a trace of its own.
    const breakdowns = [];
    for (const [label, path] of [
      ['single score', single],
      ['aggregated score of 10', aggregate],
      ['batch of 100', batch],
    ]) {
      const traceIds = [];
      for (let i = 0; i < SAMPLES; i++) {
        await bench.traced.flush();
        const traceId = randomBytes(16).toString('hex');
        traceIds.push(traceId);
        await bench.traced.get(path(i), {
          headers: { ...bench.traced.headers, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
        });
      }
      breakdowns.push({ label, traceIds });
    }
    // the apps export every 50 ms (OTEL_BSP_SCHEDULE_DELAY)
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    console.log(`\n${machineLine()}`);
    console.log(
      `reference world (docs/MODEL.md), chains ${world.registry.map((c) => c.id).join(' and ')}; ${SAMPLES} samples per case, one request at a time; cold = the wallet cache emptied before the request\n`,
    );
    console.log(latencyTable(rows));
    console.log(cpuTable(cpuRows, targets));
    console.log('\nJSON-RPC round trips per chain, cold:');
    console.log(tripLines(trips));
    for (const { label, traceIds } of breakdowns) {
      const stages = stageBreakdown(traceIds.map((id) => recorder.spansOf(id)).filter((spans) => spans.length > 0));
      console.log(
        `\nWhere a cold ${label} goes (a stack exporting every span; p50 over ${traceIds.length} requests of the time each stage covered):\n`,
      );
      console.log('| service: stage (span) | p50 ms | spans |');
      console.log('|---|---:|---:|');
      for (const s of stages) console.log(`| ${s.stage} | ${s.ms.toFixed(2)} | ${s.spans} |`);
    }
  } finally {
    await bench.close();
    await recorder.close();
  }
}

/**
 * CPU per cold request (ms, the mean over the samples) of every process that serves it, from
 * /proc's clock ticks (10 ms each) read before and after each request: the apps of the stack that
 * answered it, the shared servers, and this process. One column per build.
 */
function cpuTable(cpuRows, targets) {
  const lines = [`\nCPU per cold request, ms (the mean over ${SAMPLES} requests; /proc's 10 ms clock ticks summed over them):`];
  for (const { label, perTarget } of cpuRows) {
    const names = [...new Set(perTarget.flatMap((cpu) => Object.keys(cpu)))];
    const heads = targets.map((target) => (target.suffix === '' ? 'this build' : target.suffix.trim().replace(/^\(|\)$/g, '')));
    lines.push('', `${label}:`, '', `| process | ${heads.join(' | ')} |`, `|---|${heads.map(() => '---:').join('|')}|`);
    const total = perTarget.map(() => 0);
    for (const name of names) {
      const cells = perTarget.map((cpu, t) => {
        const ms = (cpu[name] ?? 0) / SAMPLES;
        total[t] += ms;
        return ms.toFixed(1);
      });
      lines.push(`| ${name} | ${cells.join(' | ')} |`);
    }
    lines.push(`| all of them | ${total.map((ms) => ms.toFixed(1)).join(' | ')} |`);
  }
  return lines.join('\n');
}

runMain(main);
