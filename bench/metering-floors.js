#!/usr/bin/env node
// `pnpm bench:metering-floors`: the fixed costs of one metered 1-CU request, each alone on an
// otherwise idle machine, with the production code (packages/metering, packages/db): what
// `pnpm bench:metering` cannot take apart, since there every process shares the two cores.
//   1. the admission: the real `Meter` against the local Redis, requests issued 12 to an event-loop
//      turn (the batch the metered gateway sees under load), so one script call carries 12;
//      CPU of this process (the gateway's side of it) and of redis-server, per request;
//   2. the ledger: the outbox those admissions appended, moved by the real `LedgerPipeline`
//      (outbox → BullMQ → Postgres) into a throwaway database; CPU of this process (the writer),
//      of redis-server and of every postgres process, per ledger row.
// Needs `pnpm build`, Postgres and Redis.
'use strict';
const { join } = require('node:path');
const { cpuTicks, machineLine, pidsNamed, runMain, throwawayDatabase } = require('./support');

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));
// the ioredis the metering package itself uses (the bench has no Redis client of its own)
const { Redis } = require(require.resolve('ioredis', { paths: [join(ROOT, 'packages/metering')] }));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 120_000);
const PER_TURN = Number(process.env.BENCH_PER_TURN ?? 12);

/** CPU (µs) of this process and the named processes' ticks so far. */
function cpuNow(names) {
  const { user, system } = process.cpuUsage();
  const ticks = {};
  for (const name of names) ticks[name] = pidsNamed(name).reduce((sum, pid) => sum + (cpuTicks(pid) ?? 0), 0);
  return { self: user + system, ticks };
}

/** µs per unit of this process and of each named process between two readings (ticks are 10 ms). */
function perUnit(before, after, units) {
  const row = { 'this process': (after.self - before.self) / units };
  for (const name of Object.keys(before.ticks)) row[name] = ((after.ticks[name] - before.ticks[name]) * 10_000) / units;
  return row;
}

async function evalshaCalls(redis) {
  const info = await redis.info('commandstats');
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

async function main() {
  const { Meter } = dist('packages/metering/dist/meter.js');
  const { MeterKeys } = dist('packages/metering/dist/meter-keys.js');
  const { LedgerPipeline } = dist('packages/metering/dist/ledger-pipeline.js');
  const { migrate } = dist('packages/db/dist/migrate.js');
  const { createPrismaClient } = dist('packages/db/dist/prisma-client.js');
  const { UsageLedgerRepository } = dist('packages/db/dist/usage-ledger-repository.js');
  const { redisOptionsFromUrl } = dist('packages/config/dist/redis-options.js');
  const { deleteKeysWithPrefix } = dist('packages/test-world/dist/redis-cleanup.js');

  const prefix = `benchfloors${process.pid}`;
  const database = await throwawayDatabase(`bench_floors_${process.pid}`);
  await migrate(database.url);
  const db = createPrismaClient(database.url);
  // as the gateway opens it (apps/gateway/src/metering/meter.providers.ts): no auto-pipelining
  const redis = new Redis(redisOptionsFromUrl(REDIS_URL));
  try {
    const keys = new MeterKeys(prefix);
    const ledger = new UsageLedgerRepository(db);
    const meter = new Meter(redis, keys, ledger);
    const policy = { name: 'api', capacity: 100_000_000, windowMs: 60_000 };
    const request = (i) => ({
      accountId: 'cmbenchfloorsaccount00001',
      keyId: 'cmbenchfloorskey000000001',
      operation: 'scoreAddress',
      cost: 1,
      allowance: null,
      policy,
      requestId: `req-${i}`,
    });
    await meter.admit(request(0)); // seeds the month's counter
    for (let i = 0; i < 2_000; i++) await meter.admit(request(i)); // warm (JIT, script cache)

    // 1. the admission
    const calls0 = await evalshaCalls(redis);
    let before = cpuNow(['redis-server']);
    for (let i = 0; i < REQUESTS; i += PER_TURN) {
      const turn = [];
      for (let j = 0; j < PER_TURN; j++) turn.push(meter.admit(request(i + j)));
      for (const admission of await Promise.all(turn)) if (admission.kind !== 'admitted') throw new Error(`refused: ${admission.kind}`);
    }
    let after = cpuNow(['redis-server']);
    const calls = (await evalshaCalls(redis)) - calls0;
    const admission = perUnit(before, after, REQUESTS);
    const entries = await redis.xlen(keys.outbox);

    // 2. the ledger
    const pipeline = new LedgerPipeline({
      redis,
      connection: { ...redisOptionsFromUrl(REDIS_URL), maxRetriesPerRequest: null },
      keys,
      store: ledger,
      consumer: 'bench',
      flushMs: 200,
      batchMax: 500,
      claimIdleMs: 10_000,
      lockMs: 30_000,
      warn: (message) => console.error(message),
    });
    before = cpuNow(['redis-server', 'postgres']);
    await pipeline.start();
    for (;;) {
      await pipeline.pump();
      if (await pipeline.drained()) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    after = cpuNow(['redis-server', 'postgres']);
    await pipeline.close();
    const rows = (await ledger.periodTotals('cmbenchfloorsaccount00001', new Date().toISOString().slice(0, 7))).used;
    const ledgerCost = perUnit(before, after, rows);

    console.log(`${machineLine()}\n`);
    console.log(`admission: ${REQUESTS} requests, ${PER_TURN} to an event-loop turn, ${calls} script calls`);
    console.log(
      `ledger: ${entries} outbox messages, ${rows} rows written (the counter's CU: ${(await meter.usage('cmbenchfloorsaccount00001')).used})\n`,
    );
    console.log("| per metered request | this process (the gateway's side) | redis-server | postgres (every process) |");
    console.log('|---|---:|---:|---:|');
    const us = (v) => (v === undefined ? '–' : `${v.toFixed(1)} µs`);
    console.log(
      `| admission (the script call, its arguments and reply) | ${us(admission['this process'])} | ${us(admission['redis-server'])} | – |`,
    );
    console.log(
      `| ledger row (outbox → BullMQ → INSERT) | ${us(ledgerCost['this process'])} | ${us(ledgerCost['redis-server'])} | ${us(ledgerCost.postgres)} |`,
    );
    const total =
      admission['this process'] + admission['redis-server'] + ledgerCost['this process'] + ledgerCost['redis-server'] + ledgerCost.postgres;
    console.log(`\ntogether: ${total.toFixed(1)} µs of CPU per metered request, before the gateway's route hooks, headers and settlement`);
    if (rows !== REQUESTS + 2_001) throw new Error(`the ledger holds ${rows} CU, not the ${REQUESTS + 2_001} charged`);
  } finally {
    await deleteKeysWithPrefix(REDIS_URL, prefix);
    redis.disconnect();
    await db.$disconnect();
    await database.drop();
  }
}

runMain(main);
