#!/usr/bin/env node
// `pnpm bench`: requests/s and latency of GET /api/v2/sandbox/score/address/{a} through
// gateway → NATS → sandbox, and of a bare Fastify server answering fixed JSON, in the same run,
// with autocannon at 50 connections. Needs `pnpm build` and the local Postgres, Redis and NATS.
// The gateway meters: a sandbox request costs 0 CU but passes the rate limit (a leased token).
// BENCH_BASELINE=<another checkout, built> runs that checkout's gateway and sandbox too, in turn
// with this one's in every round, e.g. the build before a change, from `git worktree add`.
// BENCH_TELEMETRY=on adds this build three times more: with metrics, logs and traces off
// (METRICS=off, LOG_LEVEL=silent), with metrics alone (LOG_LEVEL=silent), and with an access line
// per request (LOG_LEVEL log) and spans exported over OTLP to a local sink: each one's cost beside
// the default (metrics on, LOG_LEVEL=warn, tracing off), in the same rounds.
'use strict';
const { fork } = require('node:child_process');
const os = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const {
  cpuProfileArgs,
  cpuTicks,
  machineLine,
  machineTicks,
  pidsNamed,
  runMain,
  stopChildren,
  throwawayDatabase,
  waitForHttp,
} = require('./support');

const ROOT = join(__dirname, '..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const PATH = `/api/v2/sandbox/score/address/${ADDRESS}`;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function start(script, env) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function load(url, headers, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, headers, pipelining: 1 }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * One round: a warm-up, then the measured load. With `processes` ({name: pid}), also each
 * process's CPU during the measured load, as a share of one core and per request (Linux /proc;
 * clock ticks of 10 ms).
 */
async function measure(label, url, headers, processes = {}) {
  await load(url, headers, WARMUP);
  const before = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuTicks(pid)]));
  const machineBefore = machineTicks();
  const started = Date.now();
  const r = await load(url, headers, DURATION);
  const seconds = (Date.now() - started) / 1000;
  const machineAfter = machineTicks();
  const non2xx = r.non2xx + r.errors + r.timeouts;
  if (non2xx > 0) throw new Error(`${label}: ${non2xx} failed requests`);
  const cpu = {};
  for (const [name, pid] of Object.entries(processes)) {
    const after = cpuTicks(pid);
    if (before[name] === undefined || after === undefined) continue;
    const ms = (after - before[name]) * 10;
    cpu[name] = { share: ms / 10 / seconds, usPerRequest: (ms * 1000) / r.requests.total };
  }
  // the whole machine's busy time (/proc/stat), to see other work beside the bench's processes
  const machine =
    machineBefore && machineAfter && Object.keys(processes).length > 0 ? (machineAfter.busy - machineBefore.busy) / seconds : undefined;
  return { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, cpu, machine };
}

/** The round with the median requests/s (its latencies come with it). */
function median(results) {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
}

/**
 * One checkout's stack (its built gateway and sandbox) on a throwaway database of its own, migrated
 * by that checkout, with one enterprise key made by its repositories: `root` may be an older
 * checkout (BENCH_BASELINE), whose schema and key code are its own.
 */
async function startStack(root, name, port, children, cleanups, extraEnv = {}) {
  const prefix = `bench${process.pid}${name}`;
  const database = await throwawayDatabase(`credit_bench_${process.pid}_${name}`);
  // run once the children have exited: the gateway moves its ledger outbox on the way out
  cleanups.push(async () => {
    const { deleteKeysWithPrefix } = require(join(ROOT, 'packages/test-world/dist/redis-cleanup.js'));
    const deleted = await deleteKeysWithPrefix(REDIS_URL, `${prefix}:meter`);
    console.log(`\n(${deleted} Redis keys under ${prefix}:meter: deleted)`);
    await database.drop();
  });
  await require(join(root, 'packages/db/dist/migrate.js')).migrate(database.url);
  const { createPrismaClient } = require(join(root, 'packages/db/dist/prisma-client.js'));
  const { AccountRepository } = require(join(root, 'packages/db/dist/account-repository.js'));
  const { ApiKeyRepository } = require(join(root, 'packages/db/dist/api-key-repository.js'));
  const prisma = createPrismaClient(database.url);
  const { account } = await new AccountRepository(prisma).findOrCreateByEmail('bench@example.com', 'enterprise');
  const { key } = await new ApiKeyRepository(prisma).create({ accountId: account.id, name: 'bench' });
  await prisma.$disconnect();
  const env = {
    ...process.env,
    NATS_SUBJECT_PREFIX: prefix,
    DATABASE_URL: database.url,
    // the gateway's metering: its Redis (keys under `<prefix>:meter:`) and an enterprise rate
    // limit no load here reaches (the default 1,000 a minute would measure 429s)
    REDIS_URL,
    RATE_LIMIT_ENTERPRISE_PER_MIN: '100000000',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...extraEnv,
  };
  // Access lines are written (to /dev/null) as to any log pipe; warnings and errors are shown.
  const stdio = extraEnv.ACCESS_LOG === 'on' ? ['ignore', 'ignore', 'inherit', 'ipc'] : 'inherit';
  // BENCH_CPU_PROF=<dir>: every stack's gateway and sandbox write a CPU profile of the whole run there when they exit
  const execArgv = cpuProfileArgs();
  const sandbox = fork(join(root, 'apps/sandbox/dist/main.js'), [], { env, stdio, execArgv });
  const gateway = fork(join(root, 'apps/gateway/dist/main.js'), [], { env, stdio, execArgv });
  children.push(sandbox, gateway);
  const url = `http://127.0.0.1:${port}${PATH}`;
  const headers = { authorization: `Bearer ${key}` };
  await waitForHttp(url, headers);
  return {
    url,
    headers,
    processes: {
      gateway: gateway.pid,
      sandbox: sandbox.pid,
      'nats-server': pidsNamed('nats-server')[0],
      'redis-server': pidsNamed('redis-server')[0],
      autocannon: process.pid,
    },
  };
}

function printCpu(title, result) {
  const cpu = Object.entries(result.cpu);
  if (cpu.length === 0) return;
  console.log(`\n${title} (share of one core; per request):`);
  for (const [name, c] of cpu) console.log(`- ${name}: ${Math.round(c.share)}%, ${c.usPerRequest.toFixed(1)} µs`);
  const total = cpu.reduce((sum, [, c]) => sum + c.share, 0);
  console.log(`- all ${cpu.length}: ${Math.round(total)}% of the machine's ${os.cpus().length * 100}%`);
  if (result.machine !== undefined)
    console.log(
      `- the whole machine: ${Math.round(result.machine)}% busy (other processes and the kernel: ${Math.round(Math.max(0, result.machine - total))}%)`,
    );
}

async function main() {
  const children = [];
  const cleanups = [];
  try {
    const bare = await start(join(__dirname, 'bare-fastify.js'), {});
    children.push(bare.child);
    const port = 18080 + (process.pid % 1000);
    const targets = [{ label: 'gateway → NATS → sandbox', stack: await startStack(ROOT, 'head', port, children, cleanups), rounds: [] }];
    // BENCH_BASELINE: another checkout, built (an earlier commit in a git worktree), measured in the
    // same run and in turn with this one, so the comparison does not ride on the machine's drift.
    if (process.env.BENCH_TELEMETRY === 'on') {
      const off = await startStack(ROOT, 'off', port + 3, children, cleanups, { METRICS: 'off', LOG_LEVEL: 'silent' });
      targets.push({ label: 'the same, metrics, logs and traces off', stack: off, rounds: [] });
      const metrics = await startStack(ROOT, 'metrics', port + 4, children, cleanups, { LOG_LEVEL: 'silent' });
      targets.push({ label: 'the same, metrics alone', stack: metrics, rounds: [] });
      const sink = await start(join(__dirname, 'otlp-sink.js'), {});
      children.push(sink.child);
      const telemetry = { ACCESS_LOG: 'on', LOG_LEVEL: 'log', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}` };
      const stack = await startStack(ROOT, 'traced', port + 2, children, cleanups, telemetry);
      targets.push({ label: 'the same, access lines and traces on', stack, rounds: [] });
    }
    if (process.env.BENCH_BASELINE) {
      const stack = await startStack(process.env.BENCH_BASELINE, 'base', port + 1, children, cleanups);
      targets.push({ label: `baseline (${process.env.BENCH_BASELINE})`, stack, rounds: [] });
    }

    // Every target stays up; the load goes to each in turn, ROUNDS times (the stacks' order
    // reversed every other round), so a change in the machine's speed touches every side alike.
    const bareRounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRounds.push(await measure('bare Fastify, fixed JSON', `http://127.0.0.1:${bare.port}${PATH}`, {}));
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        target.rounds.push(await measure(target.label, target.stack.url, target.stack.headers, target.stack.processes));
      }
    }
    const bareResult = median(bareRounds);

    console.log(`\n${machineLine()}`);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s per target (each after ${WARMUP} s warm-up); medians\n`,
    );
    console.log('| target | requests/s | p50 ms | p99 ms | requests/s of each round |');
    console.log('|---|---:|---:|---:|---|');
    for (const all of [bareRounds, ...targets.map((t) => t.rounds)]) {
      const r = median(all);
      console.log(`| ${r.label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${all.map((x) => Math.round(x.rps)).join(', ')} |`);
    }
    console.log(`\nratio gateway / bare: ${((median(targets[0].rounds).rps / bareResult.rps) * 100).toFixed(1)}%`);
    const baseline = targets.find((t) => t.label.startsWith('baseline'));
    if (baseline !== undefined) {
      const [head, base] = [targets[0].rounds, baseline.rounds];
      // each round's ratio against the bare round it ran with, then the median of those
      const perRound = (rounds) => rounds.map((r, i) => r.rps / bareRounds[i].rps);
      const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const pct = (x) => `${(x * 100).toFixed(1)}%`;
      console.log(`ratio baseline / bare: ${pct(median(base).rps / bareResult.rps)}`);
      console.log(`per round, gateway / bare: ${perRound(head).map(pct).join(', ')} (median ${pct(medianOf(perRound(head)))})`);
      console.log(`per round, baseline / bare: ${perRound(base).map(pct).join(', ')} (median ${pct(medianOf(perRound(base)))})`);
      const gatewayUs = (rounds) => rounds.map((r) => r.cpu.gateway?.usPerRequest).filter((x) => x !== undefined);
      const us = (xs) => `${xs.map((x) => x.toFixed(1)).join(', ')} µs`;
      console.log(`gateway CPU a request, each round: ${us(gatewayUs(head))}; baseline's: ${us(gatewayUs(base))}`);
    }
    const off = targets.find((t) => t.label.endsWith('traces off'));
    if (off !== undefined) {
      const usOf = (t, name) => median(t.rounds).cpu[name]?.usPerRequest;
      console.log('\nagainst "metrics, logs and traces off" (requests/s, round by round; CPU per request of the median round):');
      for (const target of targets.filter((t) => t !== off && !t.label.startsWith('baseline'))) {
        const perRound = target.rounds.map((r, i) => `${((r.rps / off.rounds[i].rps) * 100).toFixed(1)}%`).join(', ');
        const cpu = ['gateway', 'sandbox']
          .map(
            (name) =>
              `${name} ${(usOf(target, name) - usOf(off, name) >= 0 ? '+' : '') + (usOf(target, name) - usOf(off, name)).toFixed(1)} µs`,
          )
          .join(', ');
        console.log(`- ${target.label}: ${perRound}; ${cpu}`);
      }
    }
    for (const target of targets) printCpu(`CPU during the median round of ${target.label}`, median(target.rounds));
  } finally {
    await stopChildren(children);
    for (const cleanup of cleanups) await cleanup();
  }
}

runMain(main);
