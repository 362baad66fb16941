'use strict';
// Fixed-count load rounds for the benches that compare two stacks on one world (metering.js,
// telemetry.js): a round is exactly N requests, so none is left in flight when it ends and the
// CU counter can be compared with what was served; CPU per process is read around it.
const autocannon = require('autocannon');
const { cpuTicks, machineTicks } = require('./support');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

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

module.exports = { check, eachLimit, load, median, snapshot };
