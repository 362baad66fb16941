#!/usr/bin/env node
// `pnpm bench:telemetry`: what logs, metrics and traces cost on the metered score path.
// GET /api/v2/score/address/{a} (1 CU, METERING=on) through gateway → NATS → scoring (and
// identity), warm, on the reference world, in three stacks of this build, each on its own NATS
// prefix, sharing the database, Redis and the account:
// - off: METRICS=off, LOG_LEVEL=silent (no metric recorded, no request context), tracing off;
// - default: metrics on, LOG_LEVEL=warn (every request's ids in its context), tracing off;
// - sampled: the default plus spans exported over OTLP to a local sink (bench/otlp-sink.js) for
//   5% of traces (OTEL_TRACES_SAMPLER=parentbased_traceidratio);
// - everything on: the default plus an access line per request (LOG_LEVEL=log, ACCESS_LOG=on,
//   written to /dev/null) and every request's spans exported over OTLP to the sink.
// Alternating rounds of a fixed number of requests at 50 connections; every response must be
// 200 and the account's CU counter must move by exactly the requests served. The sandbox path's
// share is `BENCH_TELEMETRY=on pnpm bench`. Needs `pnpm build`, Postgres, Redis and NATS.
'use strict';
const { fork } = require('node:child_process');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { machineLine, pidsNamed, runMain, waitForHttp } = require('./support');
const { check, eachLimit, load, median } = require('./fixed-load');
const { startReferenceWorld } = require('./reference-stack');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function startSink() {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'otlp-sink.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.once('message', (m) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`otlp-sink exited with ${code}`)));
  });
}

async function main() {
  const reference = await startReferenceWorld('telemetry');
  const sink = await startSink();
  reference.onClose(() => sink.child.kill('SIGTERM'));
  try {
    const { world, population, key } = reference;
    const base = 19500 + (process.pid % 400) * 4;
    const settings = [
      { name: 'off', label: 'metrics, logs and traces off', env: { METRICS: 'off', LOG_LEVEL: 'silent' } },
      { name: 'default', label: 'default (metrics on, LOG_LEVEL=warn, tracing off)', env: {} },
      {
        name: 'sampled',
        label: 'spans over OTLP, 5% of traces sampled',
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`,
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.05',
        },
      },
      {
        name: 'on',
        label: 'everything on (access lines, spans over OTLP)',
        env: { LOG_LEVEL: 'log', ACCESS_LOG: 'on', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}` },
      },
    ];
    const stacks = settings.map((setting, i) => {
      const port = base + i;
      // the wallet views must stay cached for the whole run (default 300 s)
      const env = {
        ...reference.stackEnv(`benchtelemetry${setting.name}${process.pid}`, world.registry, port),
        WALLET_CACHE_TTL_SECONDS: '3600',
        METERING: 'on',
        ...setting.env,
      };
      const quiet = setting.name === 'on';
      const apps = Object.fromEntries(['identity', 'scoring', 'gateway'].map((app) => [app, reference.startApp(app, env, [], quiet)]));
      return { ...setting, url: `http://127.0.0.1:${port}`, apps, rounds: [] };
    });
    const headers = { authorization: `Bearer ${key}` };
    const scorePath = (a) => `/api/v2/score/address/${a}`;
    for (const stack of stacks) await waitForHttp(`${stack.url}/users/me`, headers, 60_000);

    // Each stack meters under its own prefix: its CU counter moves by what it served.
    const usage = async (stack) => {
      const res = await fetch(`${stack.url}/users/me/usage`, { headers });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`/users/me/usage: ${res.status} ${JSON.stringify(body)}`);
      return body.used;
    };
    // Every wallet read once through each stack (cold there), so that the rounds are all warm.
    for (const stack of stacks) {
      stack.usedAtStart = await usage(stack);
      stack.served = 0;
      await eachLimit(population, 8, async (a) => {
        const res = await fetch(`${stack.url}${scorePath(a)}`, { headers });
        if (res.status !== 200) throw new Error(`${stack.name} ${scorePath(a)}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        stack.served++;
      });
    }
    // the in-process indexer polls the chains every 200 ms: not part of the path measured
    await world.indexer.close();

    const requests = population.map((a) => ({ method: 'GET', path: scorePath(a) }));
    const probe = await new Promise((resolve, reject) =>
      autocannon({ url: stacks[0].url, connections: CONNECTIONS, duration: WARMUP, requests, headers }, (e, r) =>
        e ? reject(e) : resolve(r),
      ),
    );
    if (probe.non2xx + probe.errors + probe.timeouts > 0) throw new Error('the probe round had failed requests');
    // a timed round leaves requests in flight when it stops: the counter is read again once they are answered
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stacks[0].usedAtStart = await usage(stacks[0]);
    stacks[0].served = 0;
    const amount = Math.max(CONNECTIONS, Math.round(probe.requests.average * DURATION));
    const warmAmount = Math.max(CONNECTIONS, Math.round(probe.requests.average * WARMUP));
    const processes = (stack) => ({
      gateway: stack.apps.gateway.pid,
      scoring: stack.apps.scoring.pid,
      identity: stack.apps.identity.pid,
      'nats-server': pidsNamed('nats-server')[0],
      'redis-server': pidsNamed('redis-server')[0],
    });
    for (let round = 0; round < ROUNDS; round++) {
      // each stack first once in every three rounds, so none always runs after another
      const order = [...stacks.slice(round % stacks.length), ...stacks.slice(0, round % stacks.length)];
      for (const stack of order) {
        const warm = check(`${stack.label} warm-up`, await load(stack.url, requests, headers, warmAmount), warmAmount);
        const run = check(stack.label, await load(stack.url, requests, headers, amount, processes(stack)), amount);
        stack.rounds.push(run);
        stack.served += warm.total + run.total;
      }
    }
    for (const stack of stacks) stack.counted = (await usage(stack)) - stack.usedAtStart;

    console.log(`\n${machineLine()}`);
    console.log(
      `GET /api/v2/score/address/{a} (METERING=on), ${population.length} wallets in turn, warm; autocannon: ${CONNECTIONS} connections, ` +
        `${ROUNDS} rotating rounds per stack of ${amount} requests (each after ${warmAmount} warm-up requests); medians\n`,
    );
    const off = stacks[0];
    console.log('| stack | requests/s | of "off" | p50 ms | p99 ms | requests/s of each round |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const stack of stacks) {
      const r = median(stack.rounds);
      const perRound = stack.rounds.map((x) => `${Math.round(x.rps)}`).join(', ');
      const share = `${((r.rps / median(off.rounds).rps) * 100).toFixed(1)}%`;
      console.log(`| ${stack.label} | ${Math.round(r.rps)} | ${share} | ${r.p50} | ${r.p99} | ${perRound} |`);
    }
    console.log('\nCPU per request during each median round (µs), and the difference from "off":\n');
    console.log(`| process | ${stacks.map((s) => s.name).join(' | ')} |`);
    console.log(`|---|${stacks.map(() => '---:').join('|')}|`);
    for (const name of Object.keys(processes(off))) {
      const offUs = median(off.rounds).cpu[name]?.usPerRequest;
      const cells = stacks.map((s) => {
        const us = median(s.rounds).cpu[name]?.usPerRequest;
        if (us === undefined) return '';
        return s === off || offUs === undefined
          ? us.toFixed(1)
          : `${us.toFixed(1)} (${us - offUs >= 0 ? '+' : ''}${(us - offUs).toFixed(1)})`;
      });
      console.log(`| ${name} | ${cells.join(' | ')} |`);
    }
    for (const stack of stacks) {
      console.log(`\n${stack.name}: ${stack.served} requests served (all 200); its CU counter moved by ${stack.counted}`);
      if (stack.counted !== stack.served)
        throw new Error(`${stack.name}: the counter moved by ${stack.counted} CU for ${stack.served} requests of 1 CU`);
    }
  } finally {
    await reference.close();
  }
}

runMain(main);
