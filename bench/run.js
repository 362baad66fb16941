#!/usr/bin/env node
// `pnpm bench`: requests/s and latency of GET /api/v2/sandbox/score/address/{a} through
// gateway → NATS → sandbox, and of a bare Fastify server answering fixed JSON, in the same run,
// with autocannon at 50 connections. Needs `pnpm build` and the local Postgres, Redis and NATS.
// The gateway meters: a sandbox request costs 0 CU but passes the rate limit (one Redis script).
'use strict';
const { fork } = require('node:child_process');
const os = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { cpuTicks, machineLine, machineTicks, pidsNamed, runMain, stopChildren, throwawayDatabase, waitForHttp } = require('./support');

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

async function main() {
  // A throwaway database with one key, a prefix of its own: the bench never touches a dev stack.
  const database = await throwawayDatabase(`credit_bench_${process.pid}`);
  const databaseUrl = database.url;
  const prefix = `bench${process.pid}`;
  const children = [];
  try {
    await require(join(ROOT, 'packages/db/dist/migrate.js')).migrate(databaseUrl);
    const { createPrismaClient } = require(join(ROOT, 'packages/db/dist/prisma-client.js'));
    const { AccountRepository } = require(join(ROOT, 'packages/db/dist/account-repository.js'));
    const { ApiKeyRepository } = require(join(ROOT, 'packages/db/dist/api-key-repository.js'));
    const prisma = createPrismaClient(databaseUrl);
    const { account } = await new AccountRepository(prisma).findOrCreateByEmail('bench@example.com', 'enterprise');
    const { key } = await new ApiKeyRepository(prisma).create({ accountId: account.id, name: 'bench' });
    await prisma.$disconnect();

    const bare = await start(join(__dirname, 'bare-fastify.js'), {});
    children.push(bare.child);
    const env = {
      NATS_SUBJECT_PREFIX: prefix,
      DATABASE_URL: databaseUrl,
      // the gateway's metering: its Redis (keys under `<prefix>:meter:`) and an enterprise rate
      // limit no load here reaches (the default 1,000 a minute would measure 429s)
      REDIS_URL,
      RATE_LIMIT_ENTERPRISE_PER_MIN: '100000000',
      LOG_LEVEL: 'warn',
      PORT: String(18080 + (process.pid % 1000)),
      HOST: '127.0.0.1',
    };
    const sandbox = fork(join(ROOT, 'apps/sandbox/dist/main.js'), [], { env: { ...process.env, ...env }, stdio: 'inherit' });
    const gateway = fork(join(ROOT, 'apps/gateway/dist/main.js'), [], { env: { ...process.env, ...env }, stdio: 'inherit' });
    children.push(sandbox, gateway);
    const stackUrl = `http://127.0.0.1:${env.PORT}${PATH}`;
    const headers = { authorization: `Bearer ${key}` };
    await waitForHttp(stackUrl, headers);

    // Both targets stay up; the load alternates between them, ROUNDS times each, so a change in
    // the machine's speed during the run touches both sides of the ratio alike.
    const rounds = { bare: [], stack: [] };
    const stackProcesses = {
      gateway: gateway.pid,
      sandbox: sandbox.pid,
      'nats-server': pidsNamed('nats-server')[0],
      'redis-server': pidsNamed('redis-server')[0],
      autocannon: process.pid,
    };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await measure('bare Fastify, fixed JSON', `http://127.0.0.1:${bare.port}${PATH}`, {}));
      rounds.stack.push(await measure('gateway → NATS → sandbox', stackUrl, headers, stackProcesses));
    }
    const bareResult = median(rounds.bare);
    const stackResult = median(rounds.stack);

    const ratio = stackResult.rps / bareResult.rps;
    console.log(`\n${machineLine()}`);
    console.log(
      `autocannon: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION} s per target (each after ${WARMUP} s warm-up); medians\n`,
    );
    console.log('| target | requests/s | p50 ms | p99 ms | requests/s of each round |');
    console.log('|---|---:|---:|---:|---|');
    for (const [r, all] of [
      [bareResult, rounds.bare],
      [stackResult, rounds.stack],
    ]) {
      console.log(`| ${r.label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${all.map((x) => Math.round(x.rps)).join(', ')} |`);
    }
    console.log(`\nratio gateway / bare: ${(ratio * 100).toFixed(1)}%`);
    const cpu = Object.entries(stackResult.cpu);
    if (cpu.length > 0) {
      console.log('\nCPU during the median gateway round (share of one core; per request):');
      for (const [name, c] of cpu) console.log(`- ${name}: ${Math.round(c.share)}%, ${c.usPerRequest.toFixed(1)} µs`);
      const total = cpu.reduce((sum, [, c]) => sum + c.share, 0);
      console.log(`- all ${cpu.length}: ${Math.round(total)}% of the machine's ${os.cpus().length * 100}%`);
      if (stackResult.machine !== undefined)
        console.log(
          `- the whole machine: ${Math.round(stackResult.machine)}% busy (other processes and the kernel: ${Math.round(Math.max(0, stackResult.machine - total))}%)`,
        );
    }
  } finally {
    // the gateway moves its ledger outbox on the way out: its keys go once it has exited
    await stopChildren(children);
    const { deleteKeysWithPrefix } = require(join(ROOT, 'packages/test-world/dist/redis-cleanup.js'));
    const deleted = await deleteKeysWithPrefix(REDIS_URL, `${prefix}:meter`);
    console.log(`\n(${deleted} Redis keys under ${prefix}:meter: deleted)`);
    await database.drop();
  }
}

runMain(main);
