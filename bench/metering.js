#!/usr/bin/env node
// `pnpm bench:metering`: what metering costs on a production route. GET /api/v2/score/address/{a}
// (1 CU) through gateway → NATS → scoring → Redis, warm, on the reference world: one identity and
// one scoring service and two gateways on the same NATS prefix, database and Redis, one with
// METERING=on (one Redis script per request: rate limit and CU reservation) and one with
// METERING=off, loaded in alternating rounds by autocannon at 50 connections. Checks that every
// response is 200 and that the account's CU counter equals the requests the metered gateway served.
// Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const os = require('node:os');
const autocannon = require('autocannon');
const { cpuTicks, machineLine, machineTicks, pidsNamed, runMain, waitForHttp } = require('./support');
const { startReferenceWorld } = require('./reference-stack');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** `fn` over `items`, `concurrency` at a time. */
async function eachLimit(items, concurrency, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** CPU ticks so far of each process (a pid or a list of pids, e.g. Postgres and its backends), by pid. */
function snapshot(processes) {
  const ticks = {};
  for (const [name, pids] of Object.entries(processes)) ticks[name] = new Map([pids].flat().map((pid) => [pid, cpuTicks(pid)]));
  return { ticks, machine: machineTicks(), at: process.hrtime.bigint() };
}

/**
 * Exactly `amount` requests (cycling through `requests`) at CONNECTIONS connections: a fixed
 * count, so none is left in flight when the load stops and the metered gateway's counter can be
 * compared with it. Requests/s and the CPU use are taken from the start to the last response.
 */
function load(url, requests, headers, amount, processes = {}) {
  return new Promise((resolve, reject) => {
    const before = snapshot(processes);
    let responses = 0;
    let after;
    const instance = autocannon({ url, connections: CONNECTIONS, amount, requests, headers, pipelining: 1 }, (err, r) => {
      if (err) return reject(err);
      if (after === undefined) return reject(new Error(`${url}: ${responses} of ${amount} responses`));
      const seconds = Number(after.at - before.at) / 1e9;
      // clock ticks of 10 ms → share of one core, and µs per request
      const share = (ticks) => ({ share: ticks / seconds, usPerRequest: (ticks * 10_000) / amount });
      const cpu = {};
      let listed = 0;
      for (const name of Object.keys(processes)) {
        // the processes alive at both ends (a Postgres backend may come or go)
        let ticks;
        for (const [pid, t] of before.ticks[name]) {
          const u = after.ticks[name].get(pid);
          if (t !== undefined && u !== undefined) ticks = (ticks ?? 0) + u - t;
        }
        if (ticks === undefined) continue;
        cpu[name] = share(ticks);
        listed += ticks;
      }
      if (before.machine && after.machine) {
        const busy = after.machine.busy - before.machine.busy;
        cpu['everything else (other work, the kernel)'] = share(Math.max(0, busy - listed));
        cpu.machine = share(busy);
      }
      resolve({ r, seconds, rps: amount / seconds, p50: r.latency.p50, p99: r.latency.p99, total: r['2xx'], cpu });
    });
    instance.on('response', () => {
      if (++responses === amount) after = snapshot(processes);
    });
  });
}

/** Throws unless every one of the round's `amount` requests was answered 200. */
function check(label, run, amount) {
  const { r } = run;
  const codes = Object.entries(r.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}: ${count}`)
    .join(', ');
  if (
    r.errors + r.timeouts + r.non2xx > 0 ||
    r['2xx'] !== amount ||
    (r.statusCodeStats && Object.keys(r.statusCodeStats).some((c) => c !== '200'))
  )
    throw new Error(`${label}: ${amount} requests, status codes ${codes || 'none'}, ${r.errors} errors, ${r.timeouts} timeouts`);
  return run;
}

/** The round with the median requests/s (its latencies and CPU come with it). */
function median(results) {
  return [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)];
}

async function main() {
  const reference = await startReferenceWorld('metering');
  try {
    const { world, population, key } = reference;
    const prefix = `benchmetering${process.pid}`;
    const base = 19000 + (process.pid % 500) * 2;
    // the wallet views must stay cached for the whole run (default 300 s)
    const env = { ...reference.stackEnv(prefix, world.registry, base), WALLET_CACHE_TTL_SECONDS: '3600' };
    const identity = reference.startApp('identity', env);
    const scoring = reference.startApp('scoring', env);
    const gateways = {
      off: { label: 'METERING=off', url: `http://127.0.0.1:${base + 1}` },
      on: { label: 'METERING=on', url: `http://127.0.0.1:${base}` },
    };
    // BENCH_CPU_PROF=<dir>: each gateway writes a CPU profile of the whole run there when it exits
    const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
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
      'nats-server': pidsNamed('nats-server')[0],
      'redis-server': pidsNamed('redis-server')[0],
      postgres: pidsNamed('postgres'),
      anvil: pidsNamed('anvil'),
      'autocannon (the bench process)': process.pid,
    });
    const rounds = { off: [], on: [] };
    let served = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // the order alternates too, so neither gateway always runs right after the other
      for (const which of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        const g = gateways[which];
        const warm = check(`${g.label} warm-up`, await load(g.url, requests, headers, warmAmount), warmAmount);
        const other = gateways[which === 'on' ? 'off' : 'on'];
        const run = check(g.label, await load(g.url, requests, headers, amount, processes(g, other)), amount);
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
    for (const [which, r] of [
      ['off', off],
      ['on', on],
    ])
      console.log(
        `| ${gateways[which].label} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${rounds[which].map((x) => Math.round(x.rps)).join(', ')} |`,
      );
    console.log(`\nratio metered / unmetered: ${((on.rps / off.rps) * 100).toFixed(1)}%`);

    const names = Object.keys(off.cpu);
    if (names.length > 0) {
      console.log('\nCPU during each median round (share of one core; per request):\n');
      console.log('| process | METERING=off | METERING=on | difference per request |');
      console.log('|---|---:|---:|---:|');
      for (const name of names) {
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
