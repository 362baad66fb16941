import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { toClientEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment as wrapFetchV2, x402Client } from '@x402/fetch';
import { createWalletClient, getAddress, http as viemHttp, parseAbi, publicActions, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from 'x402-fetch';
import { runCli } from '@credit/cli/run-cli';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath, operationPrice } from '@credit/contracts/http-operations';
import type { CastRole } from '@credit/devnet/state-file';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import {
  paymentChain as devnetPaymentChain,
  paymentChainClient,
  signedX402Payment,
  type SignedPaymentOptions,
} from '@credit/devnet/x402-payment';
import { startPaidReferenceStack, type PaidReferenceStack } from '@credit/test-stack/paid-reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';

/**
 * x402 through the real gateway and the payments service (the x402 libraries' facilitator code,
 * self-hosted) on the devnet's payment chain: the 402 challenge, both official clients paying
 * unmodified, replay, a paid request that fails, and payments that do not pay.
 */
jest.setTimeout(240_000);

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
const ERC20_TRANSFER = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
let paid: PaidReferenceStack;
let gateway: RunningGateway;

const state = () => paid.state();
const cast = (role: CastRole) => getAddress(state().cast[role]!.address);

beforeAll(async () => {
  paid = await startPaidReferenceStack(['scoring', 'reports']);
  gateway = paid.gateway;
}, 600_000);

afterAll(async () => {
  await paid?.close();
});

const paymentChain = () => devnetPaymentChain(state().payments);
const publicClient = () => paymentChainClient(state().payments);
const balances = () => paid.balances();

const paths = () => ({
  score: `/api/v2/score/address/${cast('healthy_borrower')}`,
  identity: `/api/v2/identity/address/${cast('ens_holder')}/attestations`,
  report: `/api/v2/report/address/${cast('healthy_borrower')}`,
});
const PRICES = { score: 1, identity: 1, report: 7 } as const;

/** A v1 `X-PAYMENT` signed by hand (the devnet payer's unless `key`), for the cases the official clients never send. */
const signedV1 = (overrides: Partial<SignedPaymentOptions> = {}) =>
  signedX402Payment(state().payments, { key: state().cast.payer.privateKey, ...overrides });

describe('the challenge', () => {
  it('a priced production endpoint without Authorization answers 402: docs/API.md §2.11 body, x402 v1 accepts, the v2 header for four networks', async () => {
    const res = await http(gateway.url, paths().report);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: 'authentication_required', credit_units: 7, x402Version: 1 });
    expect(typeof res.body.message).toBe('string');
    const [token, x402] = res.body.options;
    expect(token).toMatchObject({ method: 'api_token', cost: '7 CU' });
    expect(token.signup_url).toMatch(/^https?:\/\//);
    expect(x402).toMatchObject({
      method: 'x402_payment',
      price: '0.07',
      currency: 'USDC',
      network: 'base',
      pay_to: state().payments.payTo,
    });
    expect(res.body.accepts.map((a: { network: string }) => a.network)).toEqual(['base', 'base-sepolia']);
    const devnet = res.body.accepts.find((a: { network: string }) => a.network === 'base-sepolia');
    expect(devnet).toMatchObject({
      scheme: 'exact',
      maxAmountRequired: '70000',
      payTo: state().payments.payTo,
      asset: getAddress(state().payments.token),
      extra: { name: 'USDC', version: '2' },
    });
    const header = res.headers.get('payment-required')!;
    expect(res.headers.get('x-payment-required')).toBe(header);
    const required = decodePaymentRequiredHeader(header);
    expect(required.x402Version).toBe(2);
    expect(required.accepts.map((a) => a.network)).toEqual(['eip155:8453', 'eip155:84532', 'eip155:1187947933', 'eip155:324705682']);
    expect(new Set(required.accepts.map((a) => a.amount))).toEqual(new Set(['70000']));
  });

  it.each(OPERATION_IDS)('every priced production operation answers 402 without a key: %s', async (id) => {
    const a = cast('healthy_borrower');
    const path = operationPath(id, 'production').replace('{address}', a).replace('{chain_id}', '1');
    const price = operationPrice(id, 'production');
    const list = price.kind === 'per_address' || id === 'scoreAggregate' ? `?address=${a},${cast('multichain')}` : '';
    const method = HTTP_OPERATIONS[id].method;
    const res = await http(gateway.url, `${path}${list}`, { method, ...(method === 'POST' ? { body: { total_asset_usd: 1 } } : {}) });
    expect([res.status, res.body.error]).toEqual([402, 'authentication_required']);
    const cu = price.kind === 'fixed' ? price.cu : price.cu * 2;
    expect(res.body.credit_units).toBe(cu);
    expect(res.body.accepts.map((r: { maxAmountRequired: string }) => r.maxAmountRequired)).toEqual([
      String(cu * 10_000),
      String(cu * 10_000),
    ]);
    expect(decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts).toHaveLength(4);
  });

  it('exposes the payment headers to browsers (CORS), and answers their preflight', async () => {
    const res = await http(gateway.url, paths().score, { headers: { origin: 'https://app.example' } });
    expect(res.status).toBe(402);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const name of ['payment-required', 'x-payment-required', 'payment-response', 'x-payment-response'])
      expect(exposed).toContain(name);
    const preflight = await fetch(`${gateway.url}${paths().score}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-payment' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('x-payment');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('payment-signature');
    // without an Origin, no CORS headers; an OPTIONS that is no preflight is routed like any request
    expect((await http(gateway.url, paths().score)).headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${gateway.url}${paths().score}`, { method: 'OPTIONS' })).status).toBe(404);
  });

  it('the sandbox, /users/me and a bad Authorization stay 401', async () => {
    expect((await http(gateway.url, `/api/v2/sandbox/score/address/${cast('healthy_borrower')}`)).status).toBe(401);
    expect((await http(gateway.url, '/users/me')).status).toBe(401);
    expect((await http(gateway.url, paths().score, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect(
      (await http(gateway.url, paths().score, { headers: { authorization: 'Bearer nope', 'x-payment': await signedV1() } })).status,
    ).toBe(401);
  });
});

/**
 * Pays a score, an identity and a full report with `pay` (an official client): each answered 200,
 * its settlement (`settlementOf` reads the response header) a transaction that exists on chain, and
 * the payer's USDC down, the receiver's up, by exactly CU × 10,000 atomic units.
 */
async function payEach(pay: typeof fetch, settlementOf: (res: Response) => string): Promise<void> {
  for (const [name, path] of Object.entries(paths()) as [keyof typeof PRICES, string][]) {
    const before = await balances();
    const res = await pay(`${gateway.url}${path}`);
    expect([name, res.status]).toEqual([name, 200]);
    const transaction = settlementOf(res);
    expect((await publicClient().getTransactionReceipt({ hash: transaction as Hex })).status).toBe('success');
    const after = await balances();
    const amount = BigInt(PRICES[name] * 10_000);
    expect([name, before.payer - after.payer, after.payTo - before.payTo]).toEqual([name, amount, amount]);
  }
}

describe('the official clients pay unmodified', () => {
  it('x402-fetch (v1) pays a score, an identity and a full report: CU × 10,000 atomic units each, settled on chain', async () => {
    const { cast: c } = state();
    const wallet = createWalletClient({
      account: privateKeyToAccount(c.payer.privateKey),
      chain: paymentChain(),
      transport: viemHttp(state().payments.rpcUrl),
    }).extend(publicActions);
    const pay = wrapFetchV1(fetch, wallet as never, 1_000_000n);
    await payEach(pay, (res) => {
      expect(res.headers.get('payment-response')).toBe(res.headers.get('x-payment-response'));
      const settlement = decodeXPaymentResponse(res.headers.get('x-payment-response')!);
      expect(settlement).toMatchObject({ success: true, payer: c.payer.address.toLowerCase() });
      return settlement.transaction;
    });
    const ledger = await paid.ledger.list({ payer: c.payer.address });
    expect(ledger.filter((p) => p.status === 'settled' && p.x402Version === 1).length).toBeGreaterThanOrEqual(3);
  });

  it('@x402/fetch (v2) pays the same three with PAYMENT-SIGNATURE', async () => {
    const { cast: c, payments: p } = state();
    const signer = toClientEvmSigner(privateKeyToAccount(c.payer.privateKey), publicClient() as never);
    const client = x402Client.fromConfig({
      schemes: [{ network: 'eip155:84532', client: new ExactEvmScheme(signer) }],
      spendControls: { allowedAssets: [{ network: 'eip155:84532', asset: p.token }] },
    });
    const pay = wrapFetchV2(fetch, client);
    await payEach(pay, (res) => {
      const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      expect(settlement).toMatchObject({ success: true, network: 'eip155:84532' });
      return settlement.transaction;
    });
    const ledger = await paid.ledger.list({ payer: c.payer.address });
    expect(ledger.filter((row) => row.status === 'settled' && row.x402Version === 2).length).toBe(3);
  });
});

describe('one payment, one request', () => {
  it('one signed payment sent 10 times at once moves the amount once; its copies get that answer or payment_already_used; sent again later, the same answer', async () => {
    const header = await signedV1();
    const before = await balances();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => http(gateway.url, paths().score, { headers: { 'x-payment': header } })),
    );
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(served.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) expect([r.status, r.body.reason]).toEqual([402, 'payment_already_used']);
    // every copy served got the one answer and the one settlement (a copy after the settlement: its kept answer)
    const settlements = new Set(served.map((r) => r.headers.get('payment-response')));
    expect(settlements.size).toBe(1);
    for (const r of served) expect(r.body).toEqual(served[0]!.body);
    // sent again later (a caller whose answer was lost): the answer it paid for, not a second payment
    const again = await http(gateway.url, paths().score, { headers: { 'x-payment': header } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(served[0]!.body);
    expect(again.headers.get('payment-response')).toBe(served[0]!.headers.get('payment-response'));
    // on another request it is no payment at all
    const elsewhere = await http(gateway.url, `/api/v2/score/address/${cast('multichain')}`, { headers: { 'x-payment': header } });
    expect([elsewhere.status, elsewhere.body.reason]).toEqual([402, 'payment_already_used']);
    const after = await balances();
    expect([before.payer - after.payer, after.payTo - before.payTo]).toEqual([10_000n, 10_000n]);
  });

  it('a paid request that fails (an address with no activity: 404) moves no USDC and the payment is recorded failed', async () => {
    const before = await balances();
    const header = await signedV1();
    const res = await http(gateway.url, `/api/v2/score/address/${cast('empty')}`, { headers: { 'x-payment': header } });
    expect(res.status).toBe(404);
    expect(res.headers.get('payment-response')).toBeNull();
    expect(await balances()).toEqual(before);
    const repo = paid.ledger;
    await waitFor(async () =>
      (await repo.list({ payer: state().cast.payer.address })).some((p) => p.operation === 'scoreAddress' && p.status === 'failed'),
    );
  });
});

describe('a payment that does not settle serves nothing', () => {
  it('two payments from an account holding enough for one, at once: both verify, one settles and is served, the other is a 402 and no score', async () => {
    const { payments: p, cast: c } = state();
    const client = publicClient();
    const poor = generatePrivateKey();
    const poorAddress = privateKeyToAccount(poor).address;
    // the devnet payer (it holds ETH for gas) hands the new account exactly one CU's worth of USDC
    const payer = createWalletClient({
      account: privateKeyToAccount(c.payer.privateKey),
      chain: paymentChain(),
      transport: viemHttp(p.rpcUrl),
    });
    const hash = await payer.writeContract({
      address: p.token,
      abi: ERC20_TRANSFER,
      functionName: 'transfer',
      args: [poorAddress, 10_000n],
    });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success');
    const before = await balances();
    const headers = await Promise.all([signedV1({ key: poor }), signedV1({ key: poor })]);
    const results = await Promise.all(headers.map((h) => http(gateway.url, paths().score, { headers: { 'x-payment': h } })));
    const served = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect([served.length, refused.length]).toEqual([1, 1]);
    expect(served[0]!.body.score).toEqual(expect.any(Number));
    expect(refused[0]!.body).toMatchObject({ error: 'authentication_required', reason: expect.any(String) });
    expect(refused[0]!.body.score).toBeUndefined();
    expect(refused[0]!.headers.get('payment-response')).toBeNull();
    const after = await balances();
    expect(after.payTo - before.payTo).toBe(10_000n);
    expect(await client.readContract({ address: p.token, abi: ERC20, functionName: 'balanceOf', args: [poorAddress] })).toBe(0n);
    const rows = await paid.ledger.list({ payer: poorAddress });
    expect(rows.map((r) => r.status).sort()).toEqual(['failed', 'settled']);
  });
});

describe('payments that do not pay: 402 with the reason, nothing moved', () => {
  const now = () => BigInt(Math.floor(Date.now() / 1000));
  const cases: [string, string, () => Promise<string>][] = [
    ['wrong amount', 'invalid_exact_evm_authorization_value', () => signedV1({ value: 9_999n })],
    ['wrong recipient', 'invalid_exact_evm_recipient_mismatch', () => signedV1({ to: privateKeyToAccount(generatePrivateKey()).address })],
    ['wrong network', 'unsupported_network', () => signedV1({ network: 'base' })],
    // signed for another token: its EIP-712 domain is not this token's
    ['wrong token', 'invalid_exact_evm_signature', () => signedV1({ token: getAddress('0x036CbD53842c5426634e7929541eC2318f3dCF7e') })],
    [
      'expired',
      'invalid_exact_evm_payload_authorization_valid_before',
      () => signedV1({ validAfter: now() - 600n, validBefore: now() - 60n }),
    ],
    [
      'not yet valid',
      'invalid_exact_evm_payload_authorization_valid_after',
      () => signedV1({ validAfter: now() + 3_600n, validBefore: now() + 7_200n }),
    ],
    ['bad signature', 'invalid_exact_evm_signature', async () => tamperSignature(await signedV1())],
    ['insufficient balance', 'invalid_exact_evm_insufficient_balance', () => signedV1({ key: generatePrivateKey() })],
    ['malformed base64', 'invalid_payment_header', () => Promise.resolve('%%% not base64 %%%')],
    ['malformed JSON', 'invalid_payment_header', () => Promise.resolve(Buffer.from('{"x402Version": 1, oops').toString('base64'))],
    ['a JSON array', 'invalid_payment_header', () => Promise.resolve(Buffer.from('[1,2]').toString('base64'))],
    [
      'no authorization',
      'invalid_payload',
      () =>
        Promise.resolve(
          Buffer.from(JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: {} })).toString('base64'),
        ),
    ],
  ];

  it.each(cases)('%s → %s', async (_name, reason, make) => {
    const before = await balances();
    const res = await http(gateway.url, paths().score, { headers: { 'x-payment': await make() } });
    expect(res.status).toBe(402);
    expect(res.body.error).toBe('authentication_required');
    expect(res.body.reason).toBe(reason);
    expect(res.body.message).toMatch(/^Payment refused \(/);
    expect(res.headers.get('payment-required')).not.toBeNull();
    expect(await balances()).toEqual(before);
  });

  it('a signature changed after its authorization was checked once is checked again: the changed copy is refused for its signature', async () => {
    // the payments service keeps the signer recovered for a digest and a signature (signature-recovery.ts):
    // the first copy's signature is good and its amount wrong; the second has the same digest
    const header = await signedV1({ value: 9_999n });
    const first = await http(gateway.url, paths().score, { headers: { 'x-payment': header } });
    expect([first.status, first.body.reason]).toEqual([402, 'invalid_exact_evm_authorization_value']);
    const changed = await http(gateway.url, paths().score, { headers: { 'x-payment': tamperSignature(header) } });
    expect([changed.status, changed.body.reason]).toEqual([402, 'invalid_exact_evm_signature']);
  });

  it('a malformed PAYMENT-SIGNATURE is a 402 too', async () => {
    const res = await http(gateway.url, paths().score, { headers: { 'payment-signature': Buffer.from('{}').toString('base64') } });
    expect([res.status, res.body.reason]).toEqual([402, 'invalid_x402_version']);
  });
});

describe('the payments ledger and the payer rate limit', () => {
  it('pnpm cli payments:list shows the settled payments with their transactions, filtered by payer; a bad payer is a usage error', async () => {
    const out: string[] = [];
    const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
    const env = { DATABASE_URL: paid.reference.stack.databaseUrl, NATS_URL, NATS_SUBJECT_PREFIX: paid.reference.stack.prefix };
    expect(await runCli(['payments:list', '--payer', state().cast.payer.address.toUpperCase().replace('0X', '0x')], env, io)).toBe(0);
    const rows = JSON.parse(out.join('')) as {
      payer: string;
      status: string;
      transaction: string | null;
      amount: string;
      operation: string;
    }[];
    const settled = rows.filter((r) => r.status === 'settled');
    expect(settled.length).toBeGreaterThanOrEqual(7);
    for (const row of settled) {
      expect(row.payer).toBe(state().cast.payer.address.toLowerCase());
      expect(row.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await publicClient().getTransactionReceipt({ hash: row.transaction as Hex })).status).toBe('success');
    }
    expect(rows.some((r) => r.status === 'failed' && r.operation === 'scoreAddress')).toBe(true);
    out.length = 0;
    expect(await runCli(['payments:list', '--payer', 'nope'], env, io)).toBe(2);
    expect(out.join('')).toMatch(/--payer must be a 0x address/);
  });

  it('a payer is rate limited on its verified address: beyond the limit, 429, the payment released and nothing moved', async () => {
    const limited = await paid.startGateway({ RATE_LIMIT_X402_PER_MIN: '2' });
    // a payment that does not verify (no funds) names nobody: it never counts against a payer
    const key = generatePrivateKey();
    for (let i = 0; i < 3; i++) {
      expect((await http(limited.url, paths().score, { headers: { 'x-payment': await signedV1({ key }) } })).status).toBe(402);
    }
    const before = await balances();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await http(limited.url, paths().score, { headers: { 'x-payment': await signedV1() } })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect((await balances()).payTo - before.payTo).toBe(20_000n);
  });
});

function tamperSignature(header: string): string {
  const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
  const sig: string = decoded.payload.signature;
  decoded.payload.signature = `${sig.slice(0, 10)}${sig[10] === 'a' ? 'b' : 'a'}${sig.slice(11)}`;
  return Buffer.from(JSON.stringify(decoded)).toString('base64');
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
