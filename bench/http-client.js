#!/usr/bin/env node
// `pnpm bench:http-client`: the CPU this process spends on one JSON-RPC call over HTTP, sent with
// the global `fetch` (undici, what viem's transport and the identity providers used) and with
// `sendHttp` (packages/http-client/src/keep-alive-http.ts: node:http on kept-alive sockets), in
// alternating rounds against anvil (the devnet's node, a process of its own): `eth_blockNumber`,
// and `eth_call` answering 4 KB. Four calls in flight at a time. Needs `pnpm build`.
'use strict';
const { join } = require('node:path');
const { machineLine, runMain } = require('./support');

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 2_000);

async function main() {
  const { startAnvil } = dist('packages/devnet/dist/anvil.js');
  const { sendHttp } = dist('packages/http-client/dist/keep-alive-http.js');
  const anvil = await startAnvil({ chainId: 31337 });
  try {
    const url = anvil.rpcUrl;
    const bodies = {
      eth_blockNumber: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      // the identity precompile echoes its input: a 4 KB answer
      'eth_call, 4 KB answer': JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_call',
        params: [{ to: '0x0000000000000000000000000000000000000004', data: `0x${'ab'.repeat(4096)}` }, 'latest'],
      }),
    };
    const headers = { 'content-type': 'application/json' };
    const ways = {
      fetch: async (body) => {
        const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
        return response.text();
      },
      sendHttp: async (body) =>
        (await sendHttp({ url, method: 'POST', headers, body, signal: AbortSignal.timeout(10_000), maxBodyBytes: 10 * 1024 * 1024 })).text,
    };
    const cpu = {};
    for (const [call, body] of Object.entries(bodies)) {
      for (const [way, send] of Object.entries(ways)) {
        const answer = JSON.parse(await send(body));
        if (answer.result === undefined) throw new Error(`${way} ${call}: ${JSON.stringify(answer)}`);
        for (let i = 0; i < 200; i++) await send(body); // warm-up
      }
      for (let round = 0; round < ROUNDS; round++) {
        for (const [way, send] of Object.entries(ways)) {
          const before = process.cpuUsage();
          for (let i = 0; i < CALLS / 4; i++) await Promise.all([send(body), send(body), send(body), send(body)]);
          const used = process.cpuUsage(before);
          ((cpu[call] ??= {})[way] ??= []).push((used.user + used.system) / CALLS);
        }
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`\n${machineLine()}`);
    console.log(
      `${ROUNDS} alternating rounds of ${CALLS} calls each, 4 in flight; this process's CPU per call (µs), median round [range]\n`,
    );
    console.log('| call | fetch | sendHttp | sendHttp / fetch |');
    console.log('|---|---:|---:|---:|');
    for (const [call, byWay] of Object.entries(cpu)) {
      const cell = (xs) => `${median(xs).toFixed(1)} [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]`;
      console.log(
        `| ${call} | ${cell(byWay.fetch)} | ${cell(byWay.sendHttp)} | ${(median(byWay.sendHttp) / median(byWay.fetch)).toFixed(2)} |`,
      );
    }
  } finally {
    await anvil.stop();
  }
}

runMain(main);
