import { randomBytes } from 'node:crypto';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { connect } from 'nats';
import { getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PaymentRecord } from '@credit/db/payment-repository';
import type { CastRole } from '@credit/devnet/state-file';
import { cancelAuthorization, paymentChainClient, signedX402Payment, spendAuthorization } from '@credit/devnet/x402-payment';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { startPaidReferenceStack, type PaidReferenceStack } from '@credit/test-stack/paid-reference-stack';
import { REDIS_URL } from '@credit/test-stack/reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';
import { RpcClient } from '@credit/rpc/rpc-client';
import { startPaymentsService } from '@credit/test-world/payments-service';
import { startSlowRpcProxy } from '../src/slow-rpc-proxy';

/**
 * Attack: be served without paying. The payer's payment verifies; then, before it settles, the
 * payer uses the authorization's nonce itself: EIP-3009 `cancelAuthorization`, or a 0-value
 * `transferWithAuthorization` to itself. Control: a payment is served only when its own transfer
 * (its AuthorizationUsed log followed by Transfer(payer → payTo, exact amount) in one receipt) is
 * on chain; a nonce used any other way is a failed payment: 402 with the reason, nothing served,
 * the ledger row `failed`. Timed into the window on a fast route (a 1-CU score) and a slow one (an
 * aggregated report of 30 addresses), 10 times each; `payTo` gains exactly the served payments.
 */
jest.setTimeout(600_000);

/** The payments service's chain answers this late (a remote provider's latency): the window is wide. */
const RPC_DELAY_MS = 150;
const ATTEMPTS = 10;

let paid: PaidReferenceStack;
let gateway: RunningGateway;

const state = () => paid.state();
const cast = (role: CastRole) => getAddress(state().cast[role]!.address);

beforeAll(async () => {
  paid = await startPaidReferenceStack(['scoring', 'reports'], { paymentsRpc: (rpcUrl) => startSlowRpcProxy(rpcUrl, RPC_DELAY_MS) });
  gateway = paid.gateway;
}, 600_000);

afterAll(async () => {
  await paid?.close();
});

const received = async () => (await paid.balances()).payTo;

const routes = () => {
  const strangers = Array.from({ length: 25 }, () => privateKeyToAccount(generatePrivateKey()).address);
  const known: CastRole[] = ['healthy_borrower', 'liquidated', 'new_wallet', 'multichain', 'ens_holder'];
  return {
    fast: `/api/v2/score/address/${cast('healthy_borrower')}`,
    slow: `/api/v2/report/?address=${[...known.map(cast), ...strangers].join(',')}`,
  };
};
type Route = keyof ReturnType<typeof routes>;
type Attack = 'cancel' | 'self_transfer' | 'none';

/** The amount this request's challenge asks on the devnet's payment chain. */
async function priceOf(path: string): Promise<bigint> {
  const challenge = await http(gateway.url, path);
  expect(challenge.status).toBe(402);
  return BigInt(challenge.body.accepts.find((a: { network: string }) => a.network === 'base-sepolia').maxAmountRequired);
}

/** Polls the ledger until the payment is verified (its row `reserved`), or the request ended first. */
async function verified(nonce: Hex, ended: () => boolean): Promise<PaymentRecord | null> {
  const payer = state().cast.payer.address;
  for (;;) {
    const row = await paid.ledger.findByNonce(state().payments.network, payer, nonce);
    if (row !== null || ended()) return row;
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}

interface Outcome {
  route: Route;
  attack: Attack;
  status: number;
  body: Record<string, unknown>;
  paymentResponse: string | null;
  /** The attack transaction made it on chain before the settlement (it used the nonce). */
  attackLanded: boolean;
  row: PaymentRecord;
  amount: bigint;
}

async function attempt(route: Route, path: string, attack: Attack): Promise<Outcome> {
  const p = state().payments;
  const key = state().cast.payer.privateKey;
  const amount = await priceOf(path);
  const nonce = `0x${randomBytes(32).toString('hex')}` as Hex;
  const header = await signedX402Payment(p, { key, nonce, value: amount, validBefore: BigInt(Math.floor(Date.now() / 1000) + 600) });
  let ended = false;
  const request = http(gateway.url, path, { headers: { 'x-payment': header } }).finally(() => (ended = true));
  let attackLanded = false;
  if (attack !== 'none') {
    const row = await verified(nonce, () => ended);
    // Verified and not yet settled: the payer uses its nonce itself.
    if (row?.status === 'reserved') {
      const hash = await (attack === 'cancel' ? cancelAuthorization(p, key, nonce) : spendAuthorization(p, key, nonce)).catch(
        () => undefined,
      );
      if (hash !== undefined) {
        const receipt = await paymentChainClient(p).waitForTransactionReceipt({ hash, pollingInterval: 20 });
        attackLanded = receipt.status === 'success';
      }
    }
  }
  const res = await request;
  const row = (await paid.ledger.findByNonce(p.network, state().cast.payer.address, nonce))!;
  return {
    route,
    attack,
    status: res.status,
    body: res.body,
    paymentResponse: res.headers.get('payment-response'),
    attackLanded,
    row,
    amount,
  };
}

/** The transactions the facilitator's signers have sent on the payment chain so far (their nonces summed). */
async function signersSent(): Promise<number> {
  const p = state().payments;
  const counts = await Promise.all(
    p.facilitators.map((f) => paymentChainClient(p).getTransactionCount({ address: f.address, blockTag: 'latest' })),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

it('a payer that cancels its authorization, or spends its nonce on a 0-value transfer to itself, between verification and settlement is never served', async () => {
  const before = await received();
  const sentBefore = await signersSent();
  const paths = routes();
  const outcomes: Outcome[] = [];
  // an honest payment on each route first: the control serves what is paid
  for (const route of ['fast', 'slow'] as const) outcomes.push(await attempt(route, paths[route], 'none'));
  for (let i = 0; i < ATTEMPTS; i++) {
    for (const route of ['fast', 'slow'] as const) {
      for (const attack of ['cancel', 'self_transfer'] as const) outcomes.push(await attempt(route, paths[route], attack));
    }
  }

  for (const o of outcomes) {
    const label = `${o.route} ${o.attack}`;
    if (o.attackLanded) {
      // the nonce was used by the payer, not by this payment's transfer: nothing served
      const reason = o.attack === 'cancel' ? 'authorization_canceled' : 'authorization_used_elsewhere';
      expect([label, o.status, o.body.error, o.body.reason]).toEqual([label, 402, 'authentication_required', reason]);
      // the 402 and nothing else: no score, no report
      expect(Object.keys(o.body).sort()).toEqual(['accepts', 'credit_units', 'error', 'message', 'options', 'reason', 'x402Version']);
      expect(o.paymentResponse).toBeNull();
      expect([label, o.row.status, o.row.error]).toEqual([label, 'failed', expect.stringContaining(reason)]);
    } else {
      // the settlement came first (or no attack): served, and paid by its own transaction
      expect([label, o.status, o.row.status]).toEqual([label, 200, 'settled']);
      const settlement = decodePaymentResponseHeader(o.paymentResponse!);
      expect(settlement.transaction).toBe(o.row.transaction);
    }
  }
  // the attacks were in the window: each kind landed on each route
  for (const route of ['fast', 'slow'] as const) {
    for (const attack of ['cancel', 'self_transfer'] as const) {
      const landed = outcomes.filter((o) => o.route === route && o.attack === attack && o.attackLanded).length;
      console.log(`x402 settlement attack: ${route} ${attack}: ${landed}/${ATTEMPTS} landed in the window, none served`);
      expect([route, attack, landed >= ATTEMPTS / 2]).toEqual([route, attack, true]);
    }
  }
  // payTo gained exactly the served payments
  const served = outcomes.filter((o) => o.status === 200);
  expect(served.length).toBeGreaterThanOrEqual(2);
  expect((await received()) - before).toBe(served.reduce((sum, o) => sum + o.amount, 0n));
  const unpaid = outcomes.filter((o) => o.status !== 200);
  for (const o of unpaid) expect(o.row.transaction).toBeNull();
  // What an attack costs the facilitator: at most one transaction of its own that reverts on chain
  // (a key-signed transfer is sent with a set gas limit, not estimated first), never a second
  // for the same payment. The attacker paid as much gas for its own transaction.
  const sent = (await signersSent()) - sentBefore;
  const landed = outcomes.filter((o) => o.attackLanded).length;
  console.log(
    `x402 settlement attack: the signers sent ${sent} transactions for ${served.length} served payments and ${landed} landed attacks`,
  );
  expect(sent).toBeGreaterThanOrEqual(served.length);
  expect(sent).toBeLessThanOrEqual(served.length + landed);
});

it('the recovery paths take no used nonce for a payment: the sweep fails a reserved payment whose authorization was cancelled', async () => {
  const p = state().payments;
  const key = state().cast.payer.privateKey;
  // a payment verified by a gateway that then died (never settled nor released): reserved, and the payer cancels it
  const nonce = `0x${randomBytes(32).toString('hex')}` as Hex;
  const header = await signedX402Payment(p, { key, nonce, validBefore: BigInt(Math.floor(Date.now() / 1000) + 600) });
  // its gateway gone: nobody waits on it any more
  await reserveWithoutGateway(header, Date.now());
  const receipt = await paymentChainClient(p).waitForTransactionReceipt({ hash: await cancelAuthorization(p, key, nonce) });
  expect(receipt.status).toBe('success');
  // the sweep starts once the cancellation is on chain (started before, on a slow machine it could
  // close the row as abandoned first: also unpaid, but not the path under test)
  const sweeping = await sweepingPayments();
  try {
    const before = await received();
    await waitFor(async () => (await paid.ledger.findByNonce(p.network, state().cast.payer.address, nonce))?.status === 'failed');
    const row = (await paid.ledger.findByNonce(p.network, state().cast.payer.address, nonce))!;
    expect(row.error).toMatch(/^authorization_canceled/);
    expect(row.transaction).toBeNull();
    expect(await received()).toBe(before);
  } finally {
    await sweeping.close();
  }
});

it("the sweep leaves a reserved payment alone while its request may still be waiting (the gateway's deadline), and closes it once that passed", async () => {
  const p = state().payments;
  const sign = () => signedX402Payment(p, { key: state().cast.payer.privateKey, validBefore: BigInt(Math.floor(Date.now() / 1000) + 600) });
  const before = await received();
  const sweeping = await sweepingPayments();
  try {
    // a slow request still running (its gateway waits 8 s more), then one whose gateway stopped waiting
    const deadline = Date.now() + 8_000;
    const waiting = await reserveWithoutGateway(await sign(), deadline);
    const gone = await reserveWithoutGateway(await sign(), Date.now() - 1_000);
    expect((await paid.ledger.find(waiting))!.deadline.getTime()).toBe(deadline);
    // a sweep ran after both were reserved: it closed the lapsed one and left the waiting one
    await waitFor(async () => (await paid.ledger.find(gone))?.status === 'failed');
    expect((await paid.ledger.find(gone))!.error).toMatch(/^abandoned: never settled/);
    expect((await paid.ledger.find(waiting))!.status).toBe('reserved');
    // past its deadline and one settle wait: closed too; nothing was sent for either
    await waitFor(async () => (await paid.ledger.find(waiting))?.status === 'failed');
    expect(await received()).toBe(before);
  } finally {
    await sweeping.close();
  }
});

/**
 * A second payments service whose sweep runs every 200 ms (settle wait 100 ms): the last tests'
 * only, since it shares the settlement queue with the first (either worker may take a job).
 */
function sweepingPayments() {
  return startPaymentsService({
    natsUrl: NATS_URL,
    prefix: paid.reference.stack.prefix,
    redisUrl: REDIS_URL,
    databaseUrl: paid.reference.stack.databaseUrl,
    payments: state().payments,
    env: { PAYMENT_SWEEP_MS: '200', SETTLEMENT_TIMEOUT_MS: '50' },
  });
}

/** Verifies a payment without any gateway (`deadline`: the one a gateway would give): the reservation a dead gateway leaves. */
async function reserveWithoutGateway(header: string, deadline: number): Promise<string> {
  const path = `/api/v2/score/address/${cast('healthy_borrower')}`;
  const challenge = await http(gateway.url, path);
  const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  const requirements = challenge.body.accepts.find((a: { network: string }) => a.network === 'base-sepolia');
  const nc = await connect({ servers: NATS_URL });
  try {
    const rpc = new RpcClient(nc, paid.reference.stack.prefix);
    const reply = await rpc.send('credit.payments.verify.v1', {
      x402Version: 1,
      payload: decoded,
      requirements,
      requestId: 'dead-gateway',
      operation: 'scoreAddress',
      cu: 1,
      resource: `GET ${path}`,
      deadline,
    });
    rpc.close();
    return reply.paymentId;
  } finally {
    await nc.close();
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
