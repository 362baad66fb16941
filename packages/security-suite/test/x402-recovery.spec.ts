import { randomBytes } from 'node:crypto';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { Redis } from 'ioredis';
import { getAddress, type Hex } from 'viem';
import { runCli } from '@credit/cli/run-cli';
import type { PaymentRecord } from '@credit/db/payment-repository';
import { paymentChainClient, signedX402Payment } from '@credit/devnet/x402-payment';
import { startPaidReferenceStack, type PaidReferenceStack } from '@credit/test-stack/paid-reference-stack';
import { REDIS_URL } from '@credit/test-stack/reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';
import { startSlowRpcProxy, type SlowRpcProxy } from '../src/slow-rpc-proxy';

/**
 * Attack (or plain bad luck): pay for an answer and never get it. The settlement lands on chain
 * while the request has stopped waiting for it (a slow chain, a gateway timeout), so the caller
 * sees a 504 and `payTo` holds its money. Control: the confirmed transfer is recorded `unserved`
 * (settled means handed over), the answer is kept for X402_ANSWER_TTL_S, the very same payment
 * sent again on the same request gets it (200, the same body and PAYMENT-RESPONSE, nothing moved
 * again, the row `settled`), any other payment naming its nonce is still `payment_already_used`;
 * past the window the row stays `unserved` (a refund owed) and `payments:list --status unserved`
 * lists it.
 *
 * How the settlement is made late: the payment chain's receipts reach the payments service
 * RECEIPT_DELAY_MS late (a proxy in front of the chain for its signer and its reads; the
 * transaction itself is mined at once), while the gateway waits at most GATEWAY_WAIT_MS
 * (RPC_TIMEOUT_MS caps the settle subject's timeout and its deadline). One payments service at a
 * time: a second one on the stack's prefix would share the settlement queue, and its worker, on
 * the plain chain, could take the job and settle it in time.
 */
jest.setTimeout(300_000);

const GATEWAY_WAIT_MS = 3_000;
const RECEIPT_DELAY_MS = 6_000;

let paid: PaidReferenceStack;
let proxy: SlowRpcProxy;
let redis: Redis;

const state = () => paid.state();
const path = () => `/api/v2/score/address/${getAddress(state().cast.healthy_borrower!.address)}`;

beforeAll(async () => {
  paid = await startPaidReferenceStack(['scoring'], {
    gatewayEnv: { RPC_TIMEOUT_MS: String(GATEWAY_WAIT_MS) },
    paymentsRpc: async (rpcUrl) => {
      proxy = await startSlowRpcProxy(rpcUrl, RECEIPT_DELAY_MS, { methods: ['eth_getTransactionReceipt'] });
      return proxy;
    },
  });
  redis = new Redis(REDIS_URL);
  // the wallet read once (keyed): the paid requests below wait on the settlement only
  expect((await http(paid.gateway.url, path(), { headers: { authorization: `Bearer ${paid.reference.key}` } })).status).toBe(200);
}, 600_000);

afterAll(async () => {
  redis?.disconnect();
  await paid?.close();
});

const cliEnv = () => ({ DATABASE_URL: paid.reference.stack.databaseUrl, NATS_URL, NATS_SUBJECT_PREFIX: paid.reference.stack.prefix });

/** `pnpm cli payments:list --status unserved`, run for real: the ids it lists. */
async function listedUnserved(): Promise<string[]> {
  const out: string[] = [];
  const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
  expect(await runCli(['payments:list', '--status', 'unserved', '--limit', '1000'], cliEnv(), io)).toBe(0);
  return (JSON.parse(out.join('')) as { id: string; status: string }[]).map((row) => row.id);
}

/** Where the payments service keeps a paid request's answer (AnswerStore). */
const keptAnswerKey = (paymentId: string) => `${paid.reference.stack.prefix}:x402:answer:${paymentId}`;

async function rowOf(nonce: Hex): Promise<PaymentRecord | null> {
  return paid.ledger.findByNonce(state().payments.network, state().cast.payer.address, nonce);
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not in ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A payment whose settlement lands after the gateway gave up: the 504 with nothing of the answer,
 * then (eventually) its row `unserved` with its transaction, which moved exactly the amount.
 */
async function paidButNotServed(): Promise<{ header: string; nonce: Hex; row: PaymentRecord }> {
  const p = state().payments;
  const key = state().cast.payer.privateKey;
  const nonce = `0x${randomBytes(32).toString('hex')}` as Hex;
  const header = await signedX402Payment(p, { key, nonce, validBefore: BigInt(Math.floor(Date.now() / 1000) + 600) });
  const amount = BigInt(JSON.parse(Buffer.from(header, 'base64').toString('utf8')).payload.authorization.value);
  const before = await paid.balances();
  const sentBefore = proxy.count('eth_sendRawTransaction');

  const first = await http(paid.gateway.url, path(), { headers: { 'x-payment': header } });
  expect(first.status).toBe(504);
  // the error and nothing of the answer: no score, no settlement header
  expect(Object.keys(first.body)).toEqual(['detail']);
  expect(first.body.detail).toMatch(/send the same request with the same payment again/);
  expect(first.headers.get('payment-response')).toBeNull();

  const row = await waitFor(
    'the late settlement recorded',
    () => rowOf(nonce),
    (r) => r?.status !== 'reserved',
  );
  expect([row!.status, row!.error]).toEqual(['unserved', null]);
  // the settlement went out through the slow chain (the one signer), and it moved exactly the amount
  expect(proxy.count('eth_sendRawTransaction') - sentBefore).toBe(1);
  const receipt = await paymentChainClient(p).getTransactionReceipt({ hash: row!.transaction as Hex });
  expect(receipt.status).toBe('success');
  const after = await paid.balances();
  expect([before.payer - after.payer, after.payTo - before.payTo]).toEqual([amount, amount]);
  return { header, nonce, row: row! };
}

it('a settlement that lands after the gateway gave up: 504 and no data, the row unserved and listed; the same payment sent again gets the answer it paid for, nothing moves again, the row becomes settled', async () => {
  const { header, nonce, row } = await paidButNotServed();
  expect(await listedUnserved()).toContain(row.id);
  // what the first request would have been answered, kept for the payment
  const kept = JSON.parse((await redis.get(keptAnswerKey(row.id)))!) as { resource: string; statusCode: number; body: string };
  expect([kept.resource, kept.statusCode]).toEqual([`GET ${path()}`, 200]);

  // a different payment reusing that nonce (signed again, another validBefore): no payment at all
  const p = state().payments;
  const other = await signedX402Payment(p, {
    key: state().cast.payer.privateKey,
    nonce,
    validBefore: BigInt(Math.floor(Date.now() / 1000) + 900),
  });
  expect(other).not.toBe(header);
  const refused = await http(paid.gateway.url, path(), { headers: { 'x-payment': other } });
  expect([refused.status, refused.body.reason]).toEqual([402, 'payment_already_used']);
  expect(refused.body.score).toBeUndefined();
  // the same payment on another request: not its answer
  const elsewhere = await http(paid.gateway.url, `/api/v2/score/address/${getAddress(state().cast.multichain!.address)}`, {
    headers: { 'x-payment': header },
  });
  expect([elsewhere.status, elsewhere.body.reason]).toEqual([402, 'payment_already_used']);
  expect(elsewhere.body.score).toBeUndefined();
  expect((await rowOf(nonce))!.status).toBe('unserved');

  // the very same payment again: the answer it paid for, with its settlement, and nothing moves
  const before = await paid.balances();
  const sentBefore = proxy.count('eth_sendRawTransaction');
  const retry = await http(paid.gateway.url, path(), { headers: { 'x-payment': header } });
  expect(retry.status).toBe(200);
  expect(retry.body.score).toEqual(expect.any(Number));
  expect(retry.body).toEqual(JSON.parse(kept.body));
  const settlement = decodePaymentResponseHeader(retry.headers.get('payment-response')!);
  expect(settlement).toMatchObject({ success: true, transaction: row.transaction, network: p.network });
  expect(retry.headers.get('x-payment-response')).toBe(retry.headers.get('payment-response'));
  expect((await rowOf(nonce))!.status).toBe('settled');
  expect(await listedUnserved()).not.toContain(row.id);
  // and again: the same answer (the row stays settled), still nothing moved
  const again = await http(paid.gateway.url, path(), { headers: { 'x-payment': header } });
  expect([again.status, again.body]).toEqual([200, retry.body]);
  expect(again.headers.get('payment-response')).toBe(retry.headers.get('payment-response'));
  expect(await paid.balances()).toEqual(before);
  expect(proxy.count('eth_sendRawTransaction')).toBe(sentBefore);
});

it('past X402_ANSWER_TTL_S the answer is gone: the same payment is refused with payment_already_used, the row stays unserved (a refund owed) and listed', async () => {
  // one payments service at a time: this one keeps an answer one second
  await paid.restartPayments({ X402_ANSWER_TTL_S: '1' });
  const { header, nonce, row } = await paidButNotServed();
  await waitFor(
    'the kept answer expired',
    () => redis.exists(keptAnswerKey(row.id)),
    (n) => n === 0,
  );

  const before = await paid.balances();
  const retry = await http(paid.gateway.url, path(), { headers: { 'x-payment': header } });
  expect([retry.status, retry.body.reason]).toEqual([402, 'payment_already_used']);
  expect(retry.body.message).toMatch(/no longer kept \(an unserved payment is refunded\)/);
  expect(retry.body.score).toBeUndefined();
  expect(retry.headers.get('payment-response')).toBeNull();
  expect(await paid.balances()).toEqual(before);
  expect((await rowOf(nonce))!.status).toBe('unserved');
  expect(await listedUnserved()).toContain(row.id);
});
