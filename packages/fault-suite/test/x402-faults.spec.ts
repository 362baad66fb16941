import { type Address, type Hex } from 'viem';
import type { Db } from '@credit/db/prisma-client';
import { PaymentRepository } from '@credit/db/payment-repository';
import { runCli } from '@credit/cli/run-cli';
import { paymentChainClient, signedX402Payment } from '@credit/devnet/x402-payment';
import { NATS_URL, startServiceProcess, type AppProcess } from '../src/apps';
import { sleep, waitUntil } from '../src/ports';
import type { ScoringWorld } from '../src/scoring-world';
import { startX402World, type X402World } from '../src/x402-world';

/**
 * x402 when the payments service dies: paid requests in flight while it is SIGKILLed and
 * restarted. Nothing is settled twice, nothing stays reserved, and the chain, the payments ledger
 * and the answers agree: the USDC moved is the paid rows' sum (`settled` and `unserved`), the
 * signer sent exactly one transaction per paid payment (one at a time, in nonce order), and a
 * payer never pays for an answer it did not get: `settled` rows are exactly the 200s; a payment
 * whose transfer landed while its request gave up is `unserved` (listed for refund by
 * `pnpm cli payments:list --status unserved`), and the same payment sent again gets its answer.
 */
jest.setTimeout(240_000);

let x402: X402World;
let world: ScoringWorld;
let payments: AppProcess;
let gateway: AppProcess;
let db: Db;

beforeAll(async () => {
  x402 = await startX402World('x402-faults');
  ({ world, db } = x402);
  // One signer, by the one-key variable, settling one payment at a time: this test holds "settled
  // means served" exactly, and a SIGKILL that lands between a settlement's `settled` mark and its
  // reply's flush breaks it (a few ms per settlement; a retry of that payment still gets its kept
  // answer, replay-payment.ts). Several settlements finishing together (four signers, or one
  // signer's eight at once) make the kill land there often. x402-signers.spec.ts kills a replica
  // holding four signers, eight at once each, and checks the chain, the USDC and the retries.
  payments = await startServiceProcess('payments', {
    ...world.scoringEnv,
    ...x402.shared,
    X402_FACILITATOR_PRIVATE_KEY: world.devnet.state.payments.facilitator.privateKey,
    X402_SETTLEMENTS_PER_SIGNER: '1',
    SETTLEMENT_TIMEOUT_MS: '2000',
    PAYMENT_SWEEP_MS: '500',
  });
  // The gateway waits 10 s at most on any subject: a payment the service was away for is held (never
  // swept) until its request's deadline, its operation's wait plus its settlement's, has passed.
  gateway = await x402.startGateway();
});

afterAll(async () => {
  await x402?.close();
});

const chain = () => paymentChainClient(world.devnet.state.payments);
const received = () => x402.received();

it('the payments service SIGKILLed with paid requests in flight: after its restart the chain, the ledger and the answers agree', async () => {
  const p = world.devnet.state.payments;
  const client = chain();
  const receivedBefore = await received();
  const signerNonceBefore = await client.getTransactionCount({ address: p.facilitator.address as Address });
  const path = `/api/v2/score/address/${world.cast('healthy_borrower')}`;
  // warm the wallet through one paid request first: the burst measures payment, not reading
  const headers = await Promise.all(
    Array.from({ length: 41 }, () =>
      signedX402Payment(p, { key: world.devnet.state.cast.payer.privateKey, validBefore: BigInt(Math.floor(Date.now() / 1000) + 600) }),
    ),
  );
  const first = await fetch(`${gateway.url}${path}`, { headers: { 'x-payment': headers[0]! } });
  expect(first.status).toBe(200);

  const answers: { status: number; requestId: string | null; header: string; body: string }[] = [];
  const burst = headers.slice(1).map(async (header, i) => {
    await sleep(i * 15);
    try {
      const res = await fetch(`${gateway.url}${path}`, { headers: { 'x-payment': header }, signal: AbortSignal.timeout(60_000) });
      answers.push({ status: res.status, requestId: res.headers.get('x-request-id'), header, body: await res.text() });
    } catch {
      answers.push({ status: 0, requestId: null, header, body: '' });
    }
  });
  // killed once some are served: the rest are before, in or after their settlement
  await waitUntil('a few paid answers', async () => answers.filter((a) => a.status === 200).length >= 3, 60_000, 10);
  payments = await payments.restart({ kill: true });
  await Promise.all(burst);

  const statuses = answers.map((a) => a.status);
  // served and settled, refused (402: the settlement did not go through), or the service away (503/504); never a 500 or a hang
  console.log(`x402 SIGKILL: statuses ${JSON.stringify(statuses)}`);
  for (const status of statuses) expect([200, 402, 503, 504]).toContain(status);
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s !== 200).length).toBeGreaterThan(0);

  const ledger = new PaymentRepository(db);
  await waitUntil(
    'no payment left reserved',
    async () => (await ledger.list({ limit: 1000 })).every((row) => row.status !== 'reserved'),
    60_000,
  );
  const rows = await ledger.list({ limit: 1000 });
  const settled = rows.filter((row) => row.status === 'settled');
  const unserved = rows.filter((row) => row.status === 'unserved');
  const paid = [...settled, ...unserved];
  // the chain: what moved is exactly the paid rows' sum; the signer sent one transaction per paid payment
  expect((await received()) - receivedBefore).toBe(paid.reduce((sum, row) => sum + BigInt(row.amount), 0n));
  expect((await client.getTransactionCount({ address: p.facilitator.address as Address })) - signerNonceBefore).toBe(paid.length);
  for (const row of paid) expect((await client.getTransactionReceipt({ hash: row.transaction as Hex })).status).toBe('success');
  // settled means served: the settled rows are exactly the requests answered 200
  const servedRequests = new Set(answers.filter((a) => a.status === 200).map((a) => a.requestId));
  expect(new Set(settled.map((row) => row.requestId))).toEqual(new Set([...servedRequests, first.headers.get('x-request-id')]));
  // and every answer agrees with its payment's row: a 402 was never paid (failed, or never taken);
  // a 503/504 is unserved (paid, to hand over or refund), failed, or never taken; never settled
  const nonceOf = (header: string): string =>
    (
      JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as { payload: { authorization: { nonce: string } } }
    ).payload.authorization.nonce.toLowerCase();
  const rowOf = (header: string) => rows.find((r) => r.nonce === nonceOf(header));
  for (const answer of answers) {
    const row = rowOf(answer.header);
    const expected = answer.status === 200 ? ['settled'] : answer.status === 402 ? ['failed', 'none'] : ['unserved', 'failed', 'none'];
    expect([answer.status, expected.includes(row?.status ?? 'none')]).toEqual([answer.status, true]);
  }
  expect(rows.length).toBe(answers.filter((a) => rowOf(a.header) !== undefined).length + 1);
  console.log(
    `x402 SIGKILL: answers ${JSON.stringify(Object.fromEntries([...new Set(statuses)].map((s) => [s, statuses.filter((x) => x === s).length])))}; ` +
      `ledger ${settled.length} settled, ${unserved.length} unserved, ${rows.length - paid.length} failed ` +
      `(${JSON.stringify([...new Set(rows.filter((r) => r.status === 'failed').map((r) => r.error?.slice(0, 90)))])}); ` +
      `USDC received ${(await received()) - receivedBefore}`,
  );

  // paid and not served: listed for refund
  const out: string[] = [];
  const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
  const cliEnv = { DATABASE_URL: world.database.url, NATS_URL, NATS_SUBJECT_PREFIX: world.prefix };
  expect(await runCli(['payments:list', '--status', 'unserved', '--limit', '1000'], cliEnv, io)).toBe(0);
  expect((JSON.parse(out.join('')) as { id: string }[]).map((r) => r.id).sort()).toEqual(unserved.map((row) => row.id).sort());
  // every request not served, sent again with the same payment: the answer it paid for if its transfer landed, else a 402
  for (const answer of answers.filter((a) => a.status !== 200)) {
    const row = rowOf(answer.header);
    if (row === undefined) continue; // never taken (the service was away before it verified): an unused payment
    const retry = await fetch(`${gateway.url}${path}`, { headers: { 'x-payment': answer.header } });
    const body = (await retry.json()) as { score?: number; reason?: string };
    if (row.status === 'unserved') {
      expect([retry.status, typeof body.score]).toEqual([200, 'number']);
      expect(retry.headers.get('payment-response')).not.toBeNull();
    } else expect([retry.status, body.reason]).toEqual([402, 'payment_already_used']);
  }
  // taken on the retry: handed over, nothing left to refund, and nothing moved again
  expect(await ledger.list({ status: 'unserved' })).toEqual([]);
  expect((await ledger.list({ status: 'settled', limit: 1000 })).length).toBe(settled.length + unserved.length);
  expect((await received()) - receivedBefore).toBe(paid.reduce((sum, row) => sum + BigInt(row.amount), 0n));

  // and the restarted service settles the next payment as before
  const after = await fetch(`${gateway.url}${path}`, {
    headers: { 'x-payment': await signedX402Payment(p, { key: world.devnet.state.cast.payer.privateKey }) },
  });
  expect(after.status).toBe(200);
});
