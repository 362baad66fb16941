#!/usr/bin/env node
// `pnpm bench:mcp`: what the MCP path adds to a cached score (issue 36). In one run, against one
// stack on the reference world (gateway, scoring and identity as processes), one request at a time
// and alternating: `GET /api/v2/score/address/{a}` (REST) and `POST /mcp` with a JSON-RPC
// `tools/call` of get_credit_score for the same address (MCP, stateless, as an MCP client sends it
// once connected). The wallet is read once before the samples, so both paths answer from the
// wallet cache; each MCP call runs the REST route in-process (decision 33). Needs `pnpm build`,
// Postgres, Redis and NATS.
'use strict';
const { cpuTicks, machineLine, runMain, waitForHttp } = require('./support');
const { startReferenceWorld, stats } = require('./reference-stack');

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);

async function timed(url, init) {
  const t0 = process.hrtime.bigint();
  const res = await fetch(url, init);
  const body = await res.json();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (res.status !== 200 || body.result?.isError) throw new Error(`${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { ms, body, cost: res.headers.get('x-cu-cost') };
}

async function main() {
  const reference = await startReferenceWorld('mcp');
  try {
    const { population, headers } = reference;
    const port = 19500 + (process.pid % 400);
    const env = reference.stackEnv(`benchmcp${process.pid}`, reference.world.registry, port);
    const gateway = ['identity', 'scoring', 'gateway'].map((app) => reference.startApp(app, env)).at(-1);
    const base = `http://127.0.0.1:${port}`;
    const address = population[0];
    await waitForHttp(`${base}/api/v2/score/address/${address}`, headers, 60_000);

    const rest = () => timed(`${base}/api/v2/score/address/${address}`, { headers });
    let id = 0;
    const mcpHeaders = { ...headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
    const mcp = () =>
      timed(`${base}/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: ++id,
          method: 'tools/call',
          params: { name: 'get_credit_score', arguments: { address } },
        }),
      });

    for (let i = 0; i < WARMUP; i++) await Promise.all([rest(), mcp()].map((p) => p.then(() => undefined)));
    const first = await rest();
    const viaMcp = await mcp();
    if (JSON.stringify(viaMcp.body.result.structuredContent) !== JSON.stringify(first.body)) throw new Error('MCP and REST disagree');
    if (viaMcp.cost !== first.cost) throw new Error(`MCP charged ${viaMcp.cost} CU, REST ${first.cost}`);

    const times = { rest: [], mcp: [] };
    for (let i = 0; i < SAMPLES; i++) {
      // alternating, so that drift in the host's speed falls on both paths alike
      if (i % 2 === 0) {
        times.rest.push((await rest()).ms);
        times.mcp.push((await mcp()).ms);
      } else {
        times.mcp.push((await mcp()).ms);
        times.rest.push((await rest()).ms);
      }
    }
    // The gateway's CPU a request on each path (user + system, 10 ms ticks), over a run of its own.
    const cpu = {};
    for (const [path, send] of [
      ['rest', rest],
      ['mcp', mcp],
    ]) {
      const before = cpuTicks(gateway.pid);
      for (let i = 0; i < SAMPLES * 2; i++) await send();
      cpu[path] = ((cpuTicks(gateway.pid) - before) * 10_000) / (SAMPLES * 2);
    }
    const r = stats(times.rest);
    const m = stats(times.mcp);
    console.log(`\n${machineLine()}`);
    console.log(`reference world, one cached score, ${SAMPLES} samples per path after ${WARMUP} warm-up pairs, one request at a time\n`);
    const row = (label, x) => `| ${label} | ${[x.p50, x.p90, x.p99, x.max].map((v) => v.toFixed(2)).join(' | ')} |`;
    console.log(
      [
        '| path | p50 ms | p90 ms | p99 ms | max ms |',
        '|---|---:|---:|---:|---:|',
        row('REST GET score', r),
        row('MCP tools/call get_credit_score', m),
      ].join('\n'),
    );
    console.log(
      `\nMCP − REST: p50 ${(m.p50 - r.p50).toFixed(2)} ms, p90 ${(m.p90 - r.p90).toFixed(2)} ms, p99 ${(m.p99 - r.p99).toFixed(2)} ms`,
    );
    console.log(`gateway CPU a request (${SAMPLES * 2} requests each): REST ${cpu.rest.toFixed(0)} µs, MCP ${cpu.mcp.toFixed(0)} µs`);
  } finally {
    await reference.close();
  }
}

runMain(main);
