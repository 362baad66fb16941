// The settlement burst of `pnpm bench:x402` (bench/x402.js): many paid requests at once, then every
// settlement checked on chain, so a figure never counts a settlement that did not happen or a
// transaction lost to a nonce clash.
'use strict';
const { join } = require('node:path');
const { createWalletClient, getAddress, http, parseAbi } = require('viem');
const { generatePrivateKey, privateKeyToAccount } = require('viem/accounts');
const { cpuTicks, machineTicks } = require('./support');

const ROOT = join(__dirname, '..');
const dist = (path) => require(join(ROOT, path));
const BURST_N = Number(process.env.BENCH_BURST_N ?? 200);

const nonceOf = (header) => JSON.parse(Buffer.from(header, 'base64').toString('utf8')).payload.authorization.nonce.toLowerCase();

/**
 * BURST_N paid requests sent at once (each its own payment, `signed(i)`, over `paths` in turn) to a
 * payments service holding `signers`; all must answer 200. Then, for every payment: its ledger row
 * is settled and its receipt holds its own AuthorizationUsed and Transfer (the payments service's
 * own check, `transferIn`), sent by one of `signers`; and each signer's nonce moved by exactly the
 * settlements it sent (a nonce error would leave a transaction missing or extra). `processes()`:
 * the pids whose CPU per request is reported, by name (one pid or several), read as the burst starts.
 */
async function settlementBurst({ url, paths, signed, payments, signers, database, processes }) {
  const { transferIn } = dist('apps/payments/dist/domain/payment-chain.js');
  const { paymentChainClient } = dist('packages/devnet/dist/x402-payment.js');
  const { createPrismaClient } = dist('packages/db/dist/prisma-client.js');
  const { PaymentRepository } = dist('packages/db/dist/payment-repository.js');
  const chain = paymentChainClient(payments);
  const addresses = signers.map((s) => getAddress(s.address));
  const nonces = () => Promise.all(addresses.map((address) => chain.getTransactionCount({ address })));
  const headers = [];
  for (let i = 0; i < BURST_N; i++) headers.push(await signed(i));
  const before = await nonces();
  const pids = processes();
  // a name may stand for several processes (postgres's backends, the devnet's anvils): each pid's ticks, summed
  // over the pids alive at both readings (a backend that ended between them is left out, not counted negative)
  const cpu = () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, [].concat(pid).map((one) => cpuTicks(one))]));
  const ticksBetween = (a, b) => a.reduce((sum, t0, i) => (t0 === undefined || b[i] === undefined ? sum : sum + b[i] - t0), 0);
  const [cpu0, machine0] = [cpu(), machineTicks()];
  const t0 = process.hrtime.bigint();
  let refusal;
  const statuses = await Promise.all(
    headers.map((header, i) =>
      fetch(`${url}${paths[i % paths.length]}`, { headers: { 'x-payment': header } }).then(async (r) => {
        const body = await r.text();
        if (r.status !== 200) refusal ??= `${r.status} ${body.slice(0, 300)}`;
        return r.status;
      }),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const [cpu1, machine1] = [cpu(), machineTicks()];
  // CPU ms per settled request of each of the stack's processes (a tick is 10 ms), and how busy the whole machine was
  const cpuMs = Object.fromEntries(Object.keys(pids).map((name) => [name, (ticksBetween(cpu0[name], cpu1[name]) * 10) / BURST_N]));
  const machineBusy = machine0 && machine1 ? (machine1.busy - machine0.busy) / (machine1.total - machine0.total) : undefined;
  const ok = statuses.filter((s) => s === 200).length;
  if (ok !== BURST_N)
    throw new Error(`burst with ${signers.length} signer(s): ${ok} of ${BURST_N} answered 200 (the first other: ${refusal})`);

  const db = createPrismaClient(database);
  try {
    const rows = await new PaymentRepository(db).list({ status: 'settled', limit: 100_000 });
    const byNonce = new Map(rows.map((row) => [row.nonce, row]));
    const bySigner = addresses.map(() => 0);
    const gasUsed = [];
    for (const header of headers) {
      const row = byNonce.get(nonceOf(header));
      if (row === undefined) throw new Error(`a payment answered 200 has no settled row (${nonceOf(header)})`);
      const receipt = await chain.getTransactionReceipt({ hash: row.transaction });
      const use = transferIn(receipt, row);
      const signer = addresses.indexOf(getAddress(receipt.from));
      if (use.kind !== 'paid' || signer === -1)
        throw new Error(`payment ${row.id}: transaction ${row.transaction} is not its own settlement`);
      bySigner[signer] += 1;
      gasUsed.push(Number(receipt.gasUsed));
    }
    const moved = (await nonces()).map((n, i) => n - before[i]);
    if (moved.some((n, i) => n !== bySigner[i]))
      throw new Error(`signers' nonces moved ${JSON.stringify(moved)} for settlements ${JSON.stringify(bySigner)}: a nonce error`);
    return {
      signers: signers.length,
      settled: ok,
      seconds,
      bySigner,
      cpuMs,
      machineBusy,
      gasUsed: [Math.min(...gasUsed), Math.max(...gasUsed)],
    };
  } finally {
    await db.$disconnect();
  }
}

const TRANSFER = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);

/**
 * `n` fresh payers, each sent `value` of the payment token by the devnet's payer (`key`), so that
 * the bench's payments come from as many payers as a public endpoint's would: what the payments
 * service reads or keeps per payer (its code, for the signature check) is then read per payment,
 * not once for the whole run. Their keys.
 */
async function fundedPayers(payments, key, n, value) {
  const { paymentChain, paymentChainClient } = dist('packages/devnet/dist/x402-payment.js');
  const chain = paymentChainClient(payments);
  const funder = privateKeyToAccount(key);
  const wallet = createWalletClient({ account: funder, chain: paymentChain(payments), transport: http(payments.rpcUrl) });
  const keys = Array.from({ length: n }, () => generatePrivateKey());
  const first = await chain.getTransactionCount({ address: funder.address, blockTag: 'pending' });
  const hashes = [];
  for (let i = 0; i < n; i++) {
    const to = privateKeyToAccount(keys[i]).address;
    hashes.push(
      await wallet.writeContract({
        address: payments.token,
        abi: TRANSFER,
        functionName: 'transfer',
        args: [to, value],
        nonce: first + i,
        gas: 100_000n,
      }),
    );
  }
  for (const hash of hashes) {
    const receipt = await chain.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`funding a payer reverted (${hash})`);
  }
  return keys;
}

/** Pays one request until it answers 200 (the payments service just restarted), for a minute at most. */
async function waitForPaid(payOnce) {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await payOnce().catch(() => undefined);
    await res?.text();
    if (res?.status === 200) return;
    if (Date.now() > until) throw new Error(`no paid request answered 200 within a minute (last: ${res?.status ?? 'no answer'})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

module.exports = { fundedPayers, settlementBurst, waitForPaid };
