#!/usr/bin/env node
// `pnpm bench:metering`: what metering costs on a production route. GET /api/v2/score/address/{a}
// (1 CU) through gateway → NATS → scoring → Redis, warm, on the reference world: one identity and
// one scoring service and two gateways on the same NATS prefix, database and Redis, one with
// METERING=on (one Redis script per request: rate limit and CU reservation) and one with
// METERING=off, loaded in alternating rounds by autocannon at 50 connections. Checks that every
// response is 200 and that the account's CU counter equals the requests the metered gateway served.
// The sandbox path (GET /api/v2/sandbox/score/address/{a}, 0 CU) through the metered gateway runs
// in the same rounds: the ratio of a warm production score to it is issue 37's warm-path figure.
// Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const os = require('node:os');
const autocannon = require('autocannon');
const { cpuProfileArgs, machineLine, pidsNamed, runMain, waitForHttp } = require('./support');
const { check, eachLimit, load, median } = require('./fixed-load');
const { startReferenceWorld } = require('./reference-stack');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function main() {
  const reference = await startReferenceWorld('metering');
  try {
    const { world, population, key } = reference;
    const prefix = `benchmetering${process.pid}`;
    const base = 19000 + (process.pid % 500) * 2;
    // the wallet views must stay cached for the whole run (default 300 s)
    const env = { ...reference.stackEnv(prefix, world.registry, base), WALLET_CACHE_TTL_SECONDS: '3600' };
    // BENCH_CPU_PROF=<dir>: the gateways, scoring and the sandbox write a CPU profile of the whole run there when they exit
    const profile = cpuProfileArgs();
    const identity = reference.startApp('identity', env);
    const scoring = reference.startApp('scoring', env, profile);
    // the sandbox path through the metered gateway, in the same rounds: what a warm production
    // score is held against (issue 37: at least 0.8 of it)
    const sandbox = reference.startApp('sandbox', env, profile);
    const gateways = {
      off: { label: 'METERING=off', url: `http://127.0.0.1:${base + 1}` },
      on: { label: 'METERING=on', url: `http://127.0.0.1:${base}` },
    };
    gateways.on.child = reference.startApp('gateway', { ...env, METERING: 'on', PORT: String(base) }, profile);
    gateways.off.child = reference.startApp('gateway', { ...env, METERING: 'off', PORT: String(base + 1) }, profile);
    const headers = { authorization: `Bearer ${key}` };
    const scorePath = (a) => `/api/v2/score/address/${a}`;
    // ready: the unmetered one through scoring; the metered one on a 0 CU route, so nothing is charged before the rounds
    await waitForHttp(`${gateways.off.url}${scorePath(population[0])}`, headers, 60_000);
    await waitForHttp(`${gateways.on.url}/users/me`, headers, 60_000);

    // Every population wallet read once (cold) through the unmetered gateway; the reading time of
    // each is kept to prove at the end that no measured request was a cold one.
    const readAt = new Map();
    const scoreOf = async (gateway, a) => {
      const res = await fetch(`${gateway.url}${scorePath(a)}`, { headers });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${scorePath(a)}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const started = Date.now();
    await eachLimit(population, 8, async (a) => readAt.set(a, (await scoreOf(gateways.off, a)).timestamp));
    console.error(`${population.length} wallets read and cached in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // the in-process indexer polls the chains (and BullMQ in Redis) every 200 ms: not part of the path measured
    await world.indexer.close();

    const usage = async () => {
      const res = await fetch(`${gateways.on.url}/users/me/usage`, { headers });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`/users/me/usage: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const usedBefore = (await usage()).used;

    const requests = population.map((a) => ({ method: 'GET', path: scorePath(a) }));
    const sandboxRequests = population.map((a) => ({ method: 'GET', path: `/api/v2/sandbox/score/address/${a}` }));
    await waitForHttp(`${gateways.on.url}${sandboxRequests[0].path}`, headers, 60_000);
    // Each round is a fixed number of requests: DURATION seconds' worth on the unmetered gateway, measured first.
    const probe = await new Promise((resolve, reject) =>
      autocannon({ url: gateways.off.url, connections: CONNECTIONS, duration: WARMUP, requests, headers }, (e, r) =>
        e ? reject(e) : resolve(r),
      ),
    );
    const amount = Math.max(CONNECTIONS, Math.round(probe.requests.average * DURATION));
    const warmAmount = Math.max(CONNECTIONS, Math.round(probe.requests.average * WARMUP));

    const processes = (gateway, other) => ({
      gateway: gateway.child.pid,
      'the other gateway (idle)': other.child.pid,
      scoring: scoring.pid,
      identity: identity.pid,
      sandbox: sandbox.pid,
      'nats-server': pidsNamed('nats-server')[0],
      'redis-server': pidsNamed('redis-server')[0],
      postgres: pidsNamed('postgres'),
      anvil: pidsNamed('anvil'),
      'autocannon (the bench process)': process.pid,
    });
    const targets = {
      off: { gateway: gateways.off, other: gateways.on, requests },
      on: { gateway: gateways.on, other: gateways.off, requests },
      sandbox: { gateway: { ...gateways.on, label: 'sandbox path, METERING=on' }, other: gateways.off, requests: sandboxRequests },
    };
    const rounds = { off: [], on: [], sandbox: [] };
    let served = 0;
    const names = Object.keys(targets);
    for (let round = 0; round < ROUNDS; round++) {
      // the order rotates too, so no target always runs right after another
      for (const which of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const { gateway: g, other, requests: paths } = targets[which];
        const warm = check(`${g.label} warm-up`, await load(g.url, paths, headers, warmAmount), warmAmount);
        const run = check(g.label, await load(g.url, paths, headers, amount, processes(g, other)), amount);
        rounds[which].push(run);
        if (which === 'on') served += warm.total + run.total;
      }
    }

    const after = await usage();
    const counted = after.used - usedBefore;
    // all still warm: no reading was redone during the rounds
    const recomputed = [];
    await eachLimit(population, 8, async (a) => {
      if ((await scoreOf(gateways.off, a)).timestamp !== readAt.get(a)) recomputed.push(a);
    });

    const off = median(rounds.off);
    const on = median(rounds.on);
    console.log(`\n${machineLine()}`);
    console.log(
      `GET /api/v2/score/address/{a}, ${population.length} population wallets in turn, warm; autocannon: ${CONNECTIONS} connections, ` +
        `${ROUNDS} alternating rounds per gateway of ${amount} requests (each after ${warmAmount} warm-up requests); medians\n`,
    );
    console.log('| gateway | requests/s | p50 ms | p99 ms | requests/s of each round |');
    console.log('|---|---:|---:|---:|---|');
    for (const which of names) {
      const r = median(rounds[which]);
      console.log(
        `| ${targets[which].gateway.label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${rounds[which].map((x) => Math.round(x.rps)).join(', ')} |`,
      );
    }
    console.log(`\nratio metered / unmetered: ${((on.rps / off.rps) * 100).toFixed(1)}%`);
    const perRound = rounds.on.map((r, i) => `${((r.rps / rounds.sandbox[i].rps) * 100).toFixed(1)}%`).join(', ');
    console.log(
      `ratio warm production score (metered) / sandbox path: ${((on.rps / median(rounds.sandbox).rps) * 100).toFixed(1)}% (each round: ${perRound})`,
    );
    const sandboxCpu = median(rounds.sandbox).cpu;
    console.log(
      `CPU a request on the sandbox path (median round): ${['gateway', 'sandbox', 'nats-server', 'redis-server']
        .map((name) => `${name} ${sandboxCpu[name]?.usPerRequest.toFixed(1)} µs`)
        .join(', ')}`,
    );

    const processNames = Object.keys(off.cpu);
    if (processNames.length > 0) {
      console.log('\nCPU during each median round (share of one core; per request):\n');
      console.log('| process | METERING=off | METERING=on | difference per request |');
      console.log('|---|---:|---:|---:|');
      for (const name of processNames) {
        const a = off.cpu[name];
        const b = on.cpu[name];
        if (b === undefined) continue;
        const label = name === 'machine' ? `whole machine (of ${os.cpus().length * 100}%)` : name;
        console.log(
          `| ${label} | ${Math.round(a.share)}%, ${a.usPerRequest.toFixed(1)} µs | ${Math.round(b.share)}%, ${b.usPerRequest.toFixed(1)} µs | ` +
            `${b.usPerRequest - a.usPerRequest >= 0 ? '+' : ''}${(b.usPerRequest - a.usPerRequest).toFixed(1)} µs |`,
        );
      }
    }

    console.log(`\nrequests the metered gateway served (warm-up and measured rounds, all 200): ${served}`);
    console.log(
      `the account's CU counter (GET /users/me/usage, used): ${after.used} (${usedBefore} before the rounds; scoreAddress: ${after.by_operation?.scoreAddress ?? 0})`,
    );
    if (counted !== served) throw new Error(`the counter moved by ${counted} CU for ${served} requests of 1 CU`);
    if (recomputed.length > 0) throw new Error(`${recomputed.length} wallets were read again during the rounds: not all warm`);
  } finally {
    await reference.close();
  }
}

runMain(main);
