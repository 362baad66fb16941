import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { getAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CreditApiError, createCreditClient } from '@credit/sdk';
import { payingFetch } from '@credit/sdk/x402';
import { AGENT_TOOLS } from '@credit/contracts/agent-tools';
import type { OperationId } from '@credit/contracts/http-operations';
import type { CastRole } from '@credit/devnet/state-file';
import { startPaidReferenceStack, type PaidReferenceStack } from '@credit/test-stack/paid-reference-stack';
import { http } from '@credit/test-stack/test-stack';
import { agentCases, withoutTimes, type AgentCase } from './support/agent-cases';

/**
 * `@credit/sdk` (issue 36) against the real stack on the reference world: every method answers
 * what its REST route answers, with the CU it was charged; the sandbox switch; errors typed by the
 * error table; a 429 waited out by its Retry-After; one call paid over x402 on the devnet's payment
 * chain; and the READMEs' examples, run as written.
 */
jest.setTimeout(300_000);

let paid: PaidReferenceStack;
const reference = () => paid.reference;
const cast = (role: CastRole) => getAddress(reference().world.devnet.state.cast[role]!.address);
const url = () => reference().stack.url;

beforeAll(async () => {
  paid = await startPaidReferenceStack(['scoring', 'reports']);
}, 600_000);

afterAll(async () => {
  await paid?.close();
});

type Method = (request: unknown) => Promise<{ data: unknown; cuCost: number | null; attempts: number }>;
const method = (client: object, id: OperationId) => (client as Record<string, Method>)[AGENT_TOOLS[id].method]!;

describe('methods', () => {
  it('each method answers its REST route body and reports the CU charged', async () => {
    const warm = await reference().stack.createKey({ plan: 'pro' });
    const { key } = await reference().stack.createKey({ plan: 'pro' });
    const client = createCreditClient({ baseUrl: url(), apiKey: key });
    const cases = agentCases(cast('healthy_borrower'), cast('multichain'), cast('ens_holder'), reference().world.registry[0]!.id);
    for (const [id, c] of Object.entries(cases) as [OperationId, AgentCase<OperationId>][]) {
      const rest = () => http(url(), c.rest.path, { method: c.rest.method, key: warm.key, body: c.rest.body });
      expect({ id, status: (await rest()).status }).toEqual({ id, status: 200 });
      const result = await method(client, id)(c.args);
      const answer = await rest();
      expect({ id, data: withoutTimes(result.data) }).toEqual({ id, data: withoutTimes(answer.body) });
      expect({ id, cu: result.cuCost }).toEqual({ id, cu: Number(answer.headers.get('x-cu-cost')) });
    }
    const usage = await http(url(), '/users/me/usage', { key });
    expect(usage.body.used).toBeGreaterThan(0);
  });

  it('sandbox: true sends every call to the sandbox, free', async () => {
    const { key } = await reference().stack.createKey();
    const sandbox = createCreditClient({ baseUrl: url(), apiKey: key, sandbox: true });
    const address = cast('new_wallet');
    const result = await sandbox.getComprehensiveReport({ address });
    const score = await sandbox.getCreditScore({ address });
    const answer = await http(url(), `/api/v2/sandbox/score/address/${address}`, { key });
    expect(sandbox.variant).toBe('sandbox');
    expect(result.data.sandbox).toBe(true);
    expect(withoutTimes(score.data)).toEqual(withoutTimes(answer.body));
    expect([result.cuCost, score.cuCost]).toEqual([0, 0]);
    expect((await http(url(), '/users/me/usage', { key })).body.used).toBe(0);
  });
});

describe('errors', () => {
  it('throws CreditApiError with the status, the body and the code of the error table', async () => {
    const client = createCreditClient({ baseUrl: url(), apiKey: reference().key });
    const failure = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => error as CreditApiError,
      );

    const none = await failure(client.getAggregateScore({ addresses: ['not-an-address'] }));
    expect(none).toBeInstanceOf(CreditApiError);
    expect(none).toMatchObject({ status: 400, code: 'no_valid_address', body: { status_code: 400 } });

    const unknown = await failure(client.getCreditScore({ address: '0x000000000000000000000000000000000000dEaD' }));
    expect(unknown).toMatchObject({ status: 404, code: undefined });
    expect(unknown!.codes).toContain('address_not_found');
    expect(typeof (unknown!.body as { detail: unknown }).detail).toBe('string');

    const anonymous = await failure(
      createCreditClient({ baseUrl: url(), apiKey: 'csk_' + 'a'.repeat(40) }).getPortfolioValue({ address: cast('healthy_borrower') }),
    );
    expect(anonymous).toMatchObject({ status: 401 });
    expect(anonymous!.codes).toContain('unauthenticated');
  });

  it('waits out a 429 for its Retry-After, and without retries throws rate_limited', async () => {
    const limited = await reference().stack.startGatewayReplica({ RATE_LIMIT_FREE_PER_MIN: '60' });
    const { key } = await reference().stack.createKey({ plan: 'free' });
    const sandbox = createCreditClient({ baseUrl: limited.url, apiKey: key, sandbox: true });
    const address = cast('healthy_borrower');
    // The bucket holds 60 requests and refills one a second: empty it, then one more is refused.
    const drain = async () => {
      for (let status = 200; status !== 429;)
        status = (await http(limited.url, `/api/v2/sandbox/score/address/${address}`, { key })).status;
    };
    // On a loaded machine a second may pass between the refusal and the client's first attempt,
    // and the refilled token answers it at once: then the bucket is emptied again (a few times at most).
    const afterDraining = async <T>(call: () => Promise<T>, refused: (outcome: T) => boolean): Promise<T> => {
      let outcome: T;
      let tries = 0;
      do {
        await drain();
        outcome = await call();
        tries += 1;
      } while (!refused(outcome) && tries < 5);
      return outcome;
    };
    let started = 0;
    const result = await afterDraining(
      () => {
        started = Date.now();
        return sandbox.getCreditScore({ address });
      },
      (r) => r.attempts > 1,
    );
    expect(result.attempts).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const impatient = createCreditClient({ baseUrl: limited.url, apiKey: key, sandbox: true, retry: { maxRetries: 0 } });
    const refused = await afterDraining(
      () => impatient.getCreditScore({ address }).catch((error: unknown) => error as CreditApiError),
      (outcome) => outcome instanceof CreditApiError,
    );
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', body: { detail: { error: 'rate_limited' } } });
    expect((refused as CreditApiError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});

describe('x402', () => {
  it('pays one production call on the devnet payment chain when given a viem account instead of a key', async () => {
    const payments = paid.state().payments;
    const network = `eip155:${payments.chainId}` as const;
    const client = createCreditClient({
      baseUrl: paid.gateway.url,
      fetch: payingFetch({
        account: privateKeyToAccount(paid.state().cast.payer.privateKey),
        networks: [network],
        allowedAssets: [{ network, asset: payments.token }],
      }),
    });
    const before = await paid.balances();
    const result = await client.getCreditScore({ address: cast('healthy_borrower') });
    const after = await paid.balances();
    expect(result.data.address).toBe(cast('healthy_borrower'));
    expect(result.headers.get('payment-response')).toBeTruthy();
    expect(result.cuCost).toBeNull();
    expect(before.payer - after.payer).toBe(10_000n);
    expect(after.payTo - before.payTo).toBe(10_000n);
  });
});

describe('README examples', () => {
  /** Every TypeScript block of the READMEs that uses the SDK with a key, run as written against the stack's sandbox. */
  const blocks = ['../../../README.md', '../../sdk/README.md'].flatMap((file) =>
    [...readFileSync(join(__dirname, file), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)]
      .map(([, code]) => code!)
      .filter((code) => code.includes("from '@credit/sdk'") && !code.includes("from '@credit/sdk/x402'"))
      .map((code, i) => [`${file.replace(/^[./]+/, '')} #${i + 1}`, code] as const),
  );

  it('the READMEs have SDK examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(blocks)('%s runs', async (_name, code) => {
    const { key } = await reference().stack.createKey();
    const lines: string[] = [];
    const body = code.replace(/^import .* from '@credit\/sdk';\n/gm, '');
    const js = ts.transpileModule(`(async () => {\n${body}\n})()`, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
    const env = { CREDIT_API_URL: url(), CREDIT_API_KEY: key };
    const run = new Function(
      'createCreditClient',
      'CreditApiError',
      'process',
      'console',
      `return ${js.replace(/^"use strict";/, '').trim()}`,
    ) as (...args: unknown[]) => Promise<void>;
    await run(createCreditClient, CreditApiError, { env }, { log: (...args: unknown[]) => lines.push(args.join(' ')) });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^0x[0-9a-fA-F]{40}: \d+ \(/);
  });
});
