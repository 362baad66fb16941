#!/usr/bin/env node
// `pnpm bench:scoring`: latency of the production score endpoints through the whole stack
// (HTTP → gateway → NATS → scoring → Redis / Postgres / the devnet's chains), cold (the score
// cache emptied before each request) and warm (the same request again), for a single score, an
// aggregated score of 10 addresses and a batch of 100; and the JSON-RPC round trips per chain of a
// cold batch of 10 and of 100. Runs on the reference world (docs/MODEL.md) with the real indexer.
// Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { machineLine, runMain, throwawayDatabase, waitForHttp } = require('./support');

const ROOT = join(__dirname, '..');
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);

const dist = (path) => require(join(ROOT, path));

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), min: sorted[0], max: sorted[sorted.length - 1] };
}

async function main() {
  const { referenceDevnetOptions } = dist('packages/devnet/dist/seed/reference-world.js');
  const { startIndexedDevnet } = dist('packages/test-world/dist/indexed-devnet.js');
  const { countingRegistry } = dist('packages/test-world/dist/counting-rpc-proxy.js');
  const { deleteKeysWithPrefix } = dist('packages/test-world/dist/redis-cleanup.js');
  const { migrate } = dist('packages/db/dist/migrate.js');
  const { createPrismaClient } = dist('packages/db/dist/prisma-client.js');
  const { AccountRepository } = dist('packages/db/dist/account-repository.js');
  const { ApiKeyRepository } = dist('packages/db/dist/api-key-repository.js');

  const database = await throwawayDatabase(`credit_bench_scoring_${process.pid}`);
  const children = [];
  const prefixes = [];
  let world;
  let counted;
  try {
    await migrate(database.url);
    const prisma = createPrismaClient(database.url);
    const { account } = await new AccountRepository(prisma).findOrCreateByEmail('bench@example.com', 'enterprise');
    const { key } = await new ApiKeyRepository(prisma).create({ accountId: account.id, name: 'bench' });
    await prisma.$disconnect();

    const started = Date.now();
    world = await startIndexedDevnet({ devnet: referenceDevnetOptions(), databaseUrl: database.url, redisUrl: REDIS_URL });
    console.error(`reference world up and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    counted = await countingRegistry(world.registry);
    const population = world.devnet.state.population.map((m) => m.address);
    const headers = { authorization: `Bearer ${key}` };

    // Two stacks (their own subject and cache prefixes): one whose chains go through counting
    // proxies (round trips), one straight to the chains (latency, no proxy hop in the figures).
    const stack = async (name, chains, port) => {
      const prefix = `bench${name}${process.pid}`;
      const { CHAINS_FILE: _unused, ...inherited } = process.env;
      const env = {
        ...inherited,
        NATS_URL,
        REDIS_URL,
        NATS_SUBJECT_PREFIX: prefix,
        DATABASE_URL: database.url,
        CHAINS: JSON.stringify(chains),
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        HEALTH_PORT: '0',
      };
      children.push(fork(join(ROOT, 'apps/scoring/dist/main.js'), [], { env, stdio: 'inherit' }));
      children.push(fork(join(ROOT, 'apps/gateway/dist/main.js'), [], { env, stdio: 'inherit' }));
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/api/v2/score/address/${population[0]}`, headers);
      const get = async (path) => {
        const t0 = process.hrtime.bigint();
        const res = await fetch(`${url}${path}`, { headers });
        const body = await res.json();
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        if (res.status !== 200) throw new Error(`${path.slice(0, 80)}…: ${res.status} ${JSON.stringify(body)}`);
        return { ms, body };
      };
      prefixes.push(prefix);
      // the score cache's keys: `<prefix>:scoring:v1:…` (deleteKeysWithPrefix adds the ':')
      return { get, flush: () => deleteKeysWithPrefix(REDIS_URL, `${prefix}:scoring`) };
    };
    const base = 19000 + (process.pid % 500) * 2;
    const countingStack = await stack('count', counted.registry, base);
    const directStack = await stack('direct', world.registry, base + 1);

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
      trips[label] = { counts: counted.counts(), methods: counted.methods(), scored: body.count };
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
      `reference world (docs/MODEL.md), chains ${world.registry.map((c) => c.id).join(' and ')}; ${SAMPLES} samples per case, one request at a time; cold = the score cache emptied before the request\n`,
    );
    console.log('| request | cold p50 ms | cold p90 ms | cold max ms | warm p50 ms | warm p90 ms | warm max ms |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const f = (x) => x.toFixed(1);
    for (const r of rows)
      console.log(
        `| ${r.label} | ${f(r.cold.p50)} | ${f(r.cold.p90)} | ${f(r.cold.max)} | ${f(r.warm.p50)} | ${f(r.warm.p90)} | ${f(r.warm.max)} |`,
      );
    console.log('\nJSON-RPC round trips per chain, cold:');
    for (const [label, t] of Object.entries(trips)) {
      const per = Object.entries(t.counts)
        .map(([id, n]) => `chain ${id}: ${n} (${[...new Set(t.methods[id])].join(', ')})`)
        .join('; ');
      console.log(`- ${label} (${t.scored} scored): ${per}`);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await counted?.close();
    await world?.close();
    for (const prefix of prefixes) await deleteKeysWithPrefix(REDIS_URL, prefix);
    await database.drop();
  }
}

runMain(main);
