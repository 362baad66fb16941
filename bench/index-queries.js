#!/usr/bin/env node
// `pnpm bench:index-queries`: the CPU this process spends on each of the wallet reading's index
// queries, sent through Prisma (`$queryRawUnsafe`) and straight through its node-postgres pool
// (`rawRows`, packages/db/src/raw-rows.ts), in alternating rounds on the reference world: one
// address a query, then a hundred. Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { join } = require('node:path');
const { machineLine, runMain } = require('./support');
const { startReferenceWorld } = require('./reference-stack');

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function main() {
  const sql = dist('packages/db/dist/wallet-history-sql.js');
  const { createPrismaClient, poolOf } = dist('packages/db/dist/prisma-client.js');
  const reference = await startReferenceWorld('indexqueries');
  try {
    const db = createPrismaClient(reference.database.url);
    await db.$queryRawUnsafe('SELECT 1');
    const pool = poolOf(db);
    const chains = reference.world.registry.map((c) => c.id);
    const addresses = reference.population.map((a) => a.toLowerCase());
    const unbounded = chains.map(() => null);
    const queries = {
      'balance flows': (list) => [sql.BALANCE_FLOWS_SQL, [chains, list, unbounded, 365]],
      interactions: (list) => [sql.INTERACTIONS_SQL, [chains, list, unbounded]],
    };
    const ways = {
      prisma: (text, params) => db.$queryRawUnsafe(text, ...params),
      'node-postgres': async (text, params) => (await pool.query(text, params)).rows,
    };
    const results = [];
    for (const size of [1, 100]) {
      const n = size === 1 ? 400 : 40;
      for (const [query, build] of Object.entries(queries)) {
        const cpu = { prisma: [], 'node-postgres': [] };
        for (let round = 0; round < ROUNDS; round++) {
          for (const [way, run] of Object.entries(ways)) {
            const start = process.cpuUsage();
            for (let i = 0; i < n; i++) {
              const list = size === 1 ? [addresses[i % addresses.length]] : addresses.slice((i * 7) % 200, ((i * 7) % 200) + size);
              const [text, params] = build(list);
              await run(text, params);
            }
            const used = process.cpuUsage(start);
            cpu[way].push((used.user + used.system) / n);
          }
        }
        results.push({ query, size, cpu });
      }
    }
    await db.$disconnect();
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`\n${machineLine()}`);
    console.log(`the reference world; ${ROUNDS} alternating rounds; this process's CPU a query, median of the rounds\n`);
    console.log('| query | addresses | Prisma µs | node-postgres µs |');
    console.log('|---|---:|---:|---:|');
    for (const r of results) {
      console.log(`| ${r.query} | ${r.size} | ${median(r.cpu.prisma).toFixed(0)} | ${median(r.cpu['node-postgres']).toFixed(0)} |`);
    }
  } finally {
    await reference.close();
  }
}

runMain(main);
