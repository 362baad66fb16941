#!/usr/bin/env node
// `pnpm bench:x402`: x402 on the devnet's payment chain (docs/BENCHMARKS.md, "x402"). Starts the
// reference world and a stack (identity, scoring, the payments service with the self-hosted
// facilitator, the gateway), then measures: the facilitator's verification of one payment (in this
// process, no settlement), a paid request that is verified and released without settlement (a
// 404), the whole paid round trip with the official v1 client (402, sign, pay, settle), and
// settlements per second (many paid requests at once) with one facilitator signer, then, the
// payments service restarted, with the devnet's four; every settlement's receipt is checked on
// chain and each signer's nonce must have moved by exactly its own settlements. Every measured payment comes from its own funded payer. Needs `pnpm build`.
// BENCH_X402_BLOCK_SECONDS=<s>: the bursts run on a payment chain that mines a block every <s> seconds
// (as a real chain does: Base every 2), not one block per transaction. X402_SETTLEMENTS_PER_SIGNER
// passes to the payments service (1: each signer's settlements one at a time, as before 2026-11-28).
'use strict';
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { createWalletClient, http, publicActions } = require('viem');
const { privateKeyToAccount } = require('viem/accounts');
const { wrapFetchWithPayment } = require('x402-fetch');
const { startReferenceWorld, stats } = require('./reference-stack');
const { fundedPayers, settlementBurst, waitForPaid } = require('./x402-burst');
const { cpuProfileArgs, machineLine, pidsNamed, runMain, waitForHttp } = require('./support');

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));
const VERIFY_N = Number(process.env.BENCH_VERIFY_N ?? 200);
const ROUND_TRIP_N = Number(process.env.BENCH_ROUND_TRIP_N ?? 100);
const BURST_N = Number(process.env.BENCH_BURST_N ?? 200);
const BLOCK_SECONDS = Number(process.env.BENCH_X402_BLOCK_SECONDS ?? 0);

const f = (x) => x.toFixed(1);

async function main() {
  const reference = await startReferenceWorld('x402');
  const dir = mkdtempSync(join(tmpdir(), 'credit-bench-x402-'));
  reference.onClose(async () => rmSync(dir, { recursive: true, force: true }));
  try {
    const { world, population, headers } = reference;
    const state = world.devnet.state;
    const { payments, cast } = state;
    const { devnetX402Env } = dist('packages/x402/dist/devnet-x402.js');
    const { signedX402Payment } = dist('packages/devnet/dist/x402-payment.js');
    const signed = (key) => signedX402Payment(payments, { key, validBefore: BigInt(Math.floor(Date.now() / 1000) + 300) });
    const x402 = devnetX402Env(payments, join(dir, 'x402-networks.json'));
    const prefix = `benchx402${process.pid}`;
    const base = 19000 + (process.pid % 500) * 2;
    const env = {
      ...reference.stackEnv(prefix, world.registry, base),
      ...x402,
      RATE_LIMIT_X402_PER_MIN: '100000000',
      RATE_LIMIT_X402_UNVERIFIED_PER_MIN: '100000000',
    };
    const keys = x402.X402_FACILITATOR_PRIVATE_KEYS.split(',');
    // the payments service with the first signer only; restarted with all four before the last burst
    const withSigners = (n) => ({ ...env, X402_FACILITATOR_PRIVATE_KEYS: keys.slice(0, n).join(',') });
    // BENCH_CPU_PROF=<dir>: each payments process writes a CPU profile of its run there when it exits
    const profile = cpuProfileArgs();
    const apps = {};
    for (const app of ['identity', 'scoring', 'payments', 'gateway'])
      apps[app] = app === 'payments' ? reference.startApp(app, withSigners(1), profile) : reference.startApp(app, env);
    const url = `http://127.0.0.1:${base}`;
    const scorePath = (a) => `/api/v2/score/address/${a}`;
    await waitForHttp(`${url}${scorePath(population[0])}`, headers, 60_000);
    // the wallets scored in the round trips are read (and cached) first: the bench measures payment, not reading
    const wallets = population.slice(0, 20);
    for (const a of wallets) await fetch(`${url}${scorePath(a)}`, { headers }).then((r) => r.text());
    await world.indexer.close();
    // every measured payment comes from its own payer, fresh to the payments service (as a public
    // endpoint's would): what it reads or keeps per payer (its code) is then read per payment
    const payers = await fundedPayers(payments, cast.payer.privateKey, VERIFY_N * 2 + ROUND_TRIP_N + BURST_N * 3, 10_000n);
    let payersTaken = 0;
    const takePayers = (n) => payers.slice(payersTaken, (payersTaken += n));

    // 1. the facilitator's verification alone, in this process (the payments service runs the same code)
    const { selfHostedFacilitator } = dist('apps/payments/dist/domain/self-hosted-facilitator.js');
    const { x402Settings } = dist('packages/x402/dist/x402-settings.js');
    const { challengeOf } = dist('packages/x402/dist/challenge.js');
    const settings = x402Settings(x402);
    const facilitator = selfHostedFacilitator(settings.networks, {
      privateKey: keys[0],
      rpcTimeoutMs: 10_000,
      confirmationTimeoutMs: 30_000,
    });
    const requirement = challengeOf(
      { cu: 1, resource: `${url}${scorePath(wallets[0])}`, description: 'score', signupUrl: url },
      settings,
    ).v1.get('base-sepolia');
    const verifyMs = [];
    for (const key of takePayers(VERIFY_N)) {
      const payload = JSON.parse(Buffer.from(await signed(key), 'base64').toString('utf8'));
      const t0 = process.hrtime.bigint();
      const verdict = await facilitator.verify(payload, requirement);
      verifyMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!verdict.isValid) throw new Error(`verification refused: ${JSON.stringify(verdict)}`);
    }

    // 2. a paid request verified, reserved and released (an address with no activity: 404), no settlement
    const emptyPath = scorePath(cast.empty.address);
    const releasedMs = [];
    for (const key of takePayers(VERIFY_N)) {
      const header = await signed(key);
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${url}${emptyPath}`, { headers: { 'x-payment': header } });
      const body = await res.text();
      releasedMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (res.status !== 404) throw new Error(`a paid 404 answered ${res.status}: ${body.slice(0, 300)}`);
    }

    // 3. the whole paid round trip with the official v1 client: 402, sign, pay, serve, settle
    const chain = {
      id: payments.chainId,
      name: 'devnet',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [payments.rpcUrl] } },
    };
    const payWith = (key) =>
      wrapFetchWithPayment(
        fetch,
        createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(payments.rpcUrl) }).extend(publicActions),
        1_000_000n,
      );
    const roundTripMs = [];
    const roundTripKeys = takePayers(ROUND_TRIP_N);
    for (let i = 0; i < ROUND_TRIP_N; i++) {
      const pay = payWith(roundTripKeys[i]);
      const t0 = process.hrtime.bigint();
      const res = await pay(`${url}${scorePath(wallets[i % wallets.length])}`);
      await res.text();
      roundTripMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (res.status !== 200 || !res.headers.get('x-payment-response')) throw new Error(`a paid score answered ${res.status}`);
    }

    // 4. settlements per second: BURST_N paid requests at once, each with its own payment from its
    // own payer, with one signer, then four, then four on two replicas
    // the stack's processes, then the shared services the settlements also use (read at each burst: postgres's backends)
    const processes = () => ({
      ...Object.fromEntries(Object.entries(apps).map(([name, child]) => [name, child.pid])),
      anvil: pidsNamed('anvil'),
      'redis-server': pidsNamed('redis-server'),
      'nats-server': pidsNamed('nats-server'),
      postgres: pidsNamed('postgres'),
      // the bench itself: the paying clients' side of the burst
      bench: process.pid,
    });
    const burst = (n) => {
      const keys = takePayers(BURST_N);
      return settlementBurst({
        url,
        paths: wallets.map(scorePath),
        signed: (i) => signed(keys[i]),
        payments,
        signers: state.payments.facilitators.slice(0, n),
        database: reference.database.url,
        processes,
      });
    };
    if (BLOCK_SECONDS > 0) {
      const { rpc } = dist('packages/devnet/dist/json-rpc.js');
      await rpc(payments.rpcUrl, 'evm_setAutomine', [false]);
      // anvil's interval takes whole seconds: a shorter block time is mined from here
      if (Number.isInteger(BLOCK_SECONDS)) await rpc(payments.rpcUrl, 'evm_setIntervalMining', [BLOCK_SECONDS]);
      else {
        const miner = setInterval(() => rpc(payments.rpcUrl, 'evm_mine', []).catch(() => undefined), BLOCK_SECONDS * 1000);
        reference.onClose(async () => clearInterval(miner));
      }
    }
    const one = await burst(1);
    apps.payments.kill('SIGTERM');
    await new Promise((resolve) => apps.payments.once('exit', resolve));
    apps.payments = reference.startApp('payments', withSigners(4), profile);
    const payer = payWith(cast.payer.privateKey);
    await waitForPaid(() => payer(`${url}${scorePath(wallets[0])}`));
    const four = await burst(4);
    // the same four signers shared by two payments replicas (their queues let any replica send for any signer)
    const readyUrl = `http://127.0.0.1:${base + 1}/ready`;
    apps.payments2 = reference.startApp('payments', { ...withSigners(4), HEALTH_PORT: String(base + 1) }, profile);
    await waitForHttp(readyUrl, {}, 60_000);
    const replicas = await burst(4);

    const v = stats(verifyMs);
    const r = stats(releasedMs);
    const t = stats(roundTripMs);
    console.log(`\n${machineLine()}`);
    const mining = BLOCK_SECONDS > 0 ? `the bursts on a block every ${BLOCK_SECONDS} s` : 'one block per transaction';
    const inFlight = process.env.X402_SETTLEMENTS_PER_SIGNER ?? 'the default';
    console.log(
      `x402 on the devnet payment chain (anvil, ${mining}), self-hosted facilitator, settlements per signer at once: ${inFlight}\n`,
    );
    console.log('| measure | n | p50 ms | p99 ms | max ms |');
    console.log('|---|---:|---:|---:|---:|');
    console.log(`| facilitator verify (in process, no settlement) | ${v.n} | ${f(v.p50)} | ${f(v.p99)} | ${f(v.max)} |`);
    console.log(`| paid request verified and released, no settlement (404) | ${r.n} | ${f(r.p50)} | ${f(r.p99)} | ${f(r.max)} |`);
    console.log(
      `| paid score, whole round trip with x402-fetch (402, sign, pay, settle) | ${t.n} | ${f(t.p50)} | ${f(t.p99)} | ${f(t.max)} |`,
    );
    console.log(
      `\nsettlements: ${BURST_N} paid requests at once, each from its own payer, all 200, every receipt checked, 0 nonce errors\n`,
    );
    const names = Object.keys(processes());
    console.log(`| signers | settled | seconds | settlements/s | by signer | CPU ms per request: ${names.join(', ')} | machine busy |`);
    console.log('|---:|---:|---:|---:|---|---|---:|');
    for (const b of [one, four, replicas]) {
      const cpu = names.map((name) => (b.cpuMs[name] === undefined ? '–' : f(b.cpuMs[name]))).join(', ');
      const busy = b.machineBusy === undefined ? '–' : `${(b.machineBusy * 100).toFixed(0)}%`;
      console.log(
        `| ${b.signers}${b === replicas ? ', two payments replicas' : ''} | ${b.settled} | ${b.seconds.toFixed(2)} | ${f(b.settled / b.seconds)} | ${b.bySigner.join(' / ')} | ${cpu} | ${busy} |`,
      );
    }
    const gas = [one, four, replicas].flatMap((b) => b.gasUsed);
    console.log(`\ngas used a settlement: ${Math.min(...gas).toLocaleString('en')}–${Math.max(...gas).toLocaleString('en')}`);
  } finally {
    await reference.close();
  }
}

runMain(main);
