import { DomainError } from '@credit/contracts/errors';
import { HTTP_OPERATIONS } from '@credit/contracts/http-operations';
import { FakeMeter, startRouteHarness, type RouteHarness } from './support/route-harness';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const C = '0x3333333333333333333333333333333333333333';
const PAYER = '0xabababababababababababababababababababab';

function score(address: string) {
  return { address, score: 700, decile: 7, range: 'good', model_version: 'v', timestamp: '2026-11-01T00:00:00Z' };
}

/** An x402 v2 payment header the gateway's own checks accept; the fake payments service does the rest. */
function paymentSignature(): string {
  const payment = {
    x402Version: 2,
    accepted: { scheme: 'exact', network: 'eip155:84532' },
    payload: { signature: '0x1234', authorization: { from: PAYER } },
  };
  return Buffer.from(JSON.stringify(payment)).toString('base64');
}

describe('operation routes (route harness: fake bus and meter)', () => {
  let harness: RouteHarness;
  afterEach(() => harness?.close());

  const get = (url: string, headers: Record<string, string> = { authorization: `Bearer ${harness.key}` }) =>
    harness.request('GET', url, headers);

  it('admits a metered route with its price and keeps the CU it served', async () => {
    harness = await startRouteHarness();
    harness.rpc.answer('credit.score.address.v1', (request) => score(request.address as string));
    const response = await get(`/api/v2/score/address/${A}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ address: A, score: 700 });
    expect(harness.meter.admitted).toEqual([
      expect.objectContaining({ operation: 'scoreAddress', cost: 1, accountId: harness.account.id, keyId: 'key_harness' }),
    ]);
    // Served in full: nothing to give back, the reservation stands.
    expect(harness.meter.settled).toEqual([]);
    expect(harness.meter.charged).toBe(1);
    expect(response.headers.get('x-cu-cost')).toBe('1');
  });

  it('refunds everything reserved when the service fails', async () => {
    harness = await startRouteHarness();
    harness.rpc.answer('credit.score.address.v1', () => {
      throw new DomainError('service_unavailable', 'scoring is away');
    });
    const response = await get(`/api/v2/score/address/${A}`);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ detail: 'scoring is away' });
    expect(harness.meter.settled).toEqual([expect.objectContaining({ served: 0, statusCode: 503 })]);
    expect(harness.meter.charged).toBe(0);
    expect(response.headers.get('x-cu-cost')).toBe('0');
  });

  it('settles a per-address batch at the addresses the reply analysed', async () => {
    harness = await startRouteHarness();
    // Three valid addresses asked (one twice), two analysed.
    harness.rpc.answer('credit.score.batch.v1', () => ({ scores: [score(A), score(B)], count: 2 }));
    const response = await get(`/api/v2/score/batch/?address=${A},${B},${C},${A}`);
    expect(response.statusCode).toBe(200);
    expect(harness.meter.admitted).toEqual([expect.objectContaining({ operation: 'scoreBatch', cost: 3 })]);
    expect(harness.meter.settled).toEqual([expect.objectContaining({ served: 2, statusCode: 200 })]);
    expect(harness.meter.charged).toBe(2);
    expect(response.headers.get('x-cu-cost')).toBe('2');
  });

  it('answers a run-ahead read whose admission is refused with the refusal, and charges nothing', async () => {
    const meter = new FakeMeter();
    meter.runAhead = 'rate_limited';
    harness = await startRouteHarness({ meter });
    harness.rpc.answer('credit.score.address.v1', (request) => score(request.address as string));
    const response = await get(`/api/v2/score/address/${A}`);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ detail: { error: 'rate_limited', retry_after: 1 } });
    expect(response.headers.get('retry-after')).toBe('1');
    // It ran ahead (the service was asked), and its answer was dropped.
    expect(harness.rpc.sentOn('credit.score.address.v1')).toHaveLength(1);
    expect(harness.meter.settled).toEqual([]);
    expect(harness.meter.charged).toBe(0);
  });

  it('keeps the reservation of a run-ahead read that is admitted', async () => {
    const meter = new FakeMeter();
    meter.runAhead = 'admitted';
    harness = await startRouteHarness({ meter });
    harness.rpc.answer('credit.score.batch.v1', () => ({ scores: [score(A)], count: 1 }));
    const response = await get(`/api/v2/score/batch/?address=${A},${B}`);
    expect(response.statusCode).toBe(200);
    expect(harness.meter.settled).toEqual([expect.objectContaining({ served: 1 })]);
    expect(harness.meter.charged).toBe(1);
  });

  it('refuses a request over its monthly allowance before the service is asked', async () => {
    const meter = new FakeMeter();
    meter.decision = 'credit_exceeded';
    harness = await startRouteHarness({ meter });
    const response = await get(`/api/v2/score/address/${A}`);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ detail: { error: 'credit_limit_exceeded', plan: 'pro' } });
    expect(harness.rpc.sent).toEqual([]);
    expect(harness.meter.charged).toBe(0);
  });

  describe('x402', () => {
    beforeEach(async () => {
      harness = await startRouteHarness({ x402: true });
      harness.rpc
        .answer('credit.payments.verify.v1', () => ({ paymentId: 'pay_1', payer: PAYER, network: 'eip155:84532' }))
        .answer('credit.payments.settle.v1', () => ({ success: true, transaction: '0xfeed', network: 'eip155:84532', payer: PAYER }))
        .answer('credit.payments.release.v1', () => ({ released: true }));
    });

    it('answers 402 with the challenge when no payment comes, and asks nothing', async () => {
      const response = await get(`/api/v2/score/address/${A}`, {});
      expect(response.statusCode).toBe(402);
      expect(response.headers.get('payment-required')).toEqual(expect.any(String));
      expect(harness.rpc.sent).toEqual([]);
    });

    it('verifies the payment, serves, then settles it with the answer to keep', async () => {
      harness.rpc.answer('credit.score.address.v1', (request) => score(request.address as string));
      const response = await get(`/api/v2/score/address/${A}`, { 'payment-signature': paymentSignature() });
      expect(response.statusCode).toBe(200);
      expect(harness.rpc.sent.map((m) => m.subject)).toEqual([
        'credit.payments.verify.v1',
        'credit.score.address.v1',
        'credit.payments.settle.v1',
      ]);
      expect(harness.rpc.sentOn('credit.payments.verify.v1')[0]).toMatchObject({ operation: 'scoreAddress', cu: 1 });
      expect(harness.rpc.sentOn('credit.payments.settle.v1')[0]).toMatchObject({
        paymentId: 'pay_1',
        answer: { statusCode: 200, body: response.body },
      });
      expect(response.headers.get('payment-response')).toEqual(expect.any(String));
      // Paid per request: no CU reserved against any account.
      expect(harness.meter.admitted.every((a) => a.cost === 0)).toBe(true);
    });

    it('releases the payment, unsettled, when the answer is a 4xx', async () => {
      harness.rpc.answer('credit.score.address.v1', () => {
        throw new DomainError('address_not_found', 'no such name');
      });
      const response = await get(`/api/v2/score/address/${A}`, { 'payment-signature': paymentSignature() });
      expect(response.statusCode).toBe(404);
      expect(harness.rpc.sentOn('credit.payments.settle.v1')).toEqual([]);
      // Released after the answer: fire and forget.
      await new Promise((resolve) => setImmediate(resolve));
      expect(harness.rpc.sentOn('credit.payments.release.v1')).toEqual([{ paymentId: 'pay_1', statusCode: 404 }]);
    });

    it('replaces the answer with the 402 when the payment does not settle', async () => {
      harness.rpc.answer('credit.score.address.v1', (request) => score(request.address as string));
      harness.rpc.answer('credit.payments.settle.v1', () => {
        throw new DomainError('payment_required', 'insufficient funds', { reason: 'insufficient_funds' });
      });
      const response = await get(`/api/v2/score/address/${A}`, { 'payment-signature': paymentSignature() });
      expect(response.statusCode).toBe(402);
      expect(response.json()).toMatchObject({ reason: 'insufficient_funds' });
      expect(response.body).not.toContain('"score"');
    });
  });

  describe('score history', () => {
    const history = (request: Record<string, unknown>) => ({
      address: request.address,
      model_version: 'andromeda_1.0',
      points: [{ date: '2026-11-26', score: 700, decile: 4, range: 'fair' }],
    });

    it('charges its fixed 5 CU and sends days as a number, 90 when absent', async () => {
      harness = await startRouteHarness();
      harness.rpc.answer('credit.score.history.v1', history);
      const response = await get(`/api/v2/score/address/${A}/history?days=7`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ address: A, points: [{ date: '2026-11-26', score: 700 }] });
      expect(harness.meter.admitted).toEqual([expect.objectContaining({ operation: 'scoreHistory', cost: 5 })]);
      expect(harness.meter.charged).toBe(5);
      expect(response.headers.get('x-cu-cost')).toBe('5');
      expect((await get(`/api/v2/score/address/${A}/history`)).statusCode).toBe(200);
      expect(harness.rpc.sentOn('credit.score.history.v1')).toEqual([
        { address: A, days: 7 },
        { address: A, days: 90 },
      ]);
      // The score route beside it is another route.
      expect(harness.rpc.sentOn('credit.score.address.v1')).toEqual([]);
    });

    it('refuses days outside 1..365 or not in digits with 400 {detail}, asks nothing, charges nothing', async () => {
      harness = await startRouteHarness();
      harness.rpc.answer('credit.score.history.v1', history);
      const cases: [string, string][] = [
        ['0', 'days: must be at least 1'],
        ['366', 'days: must be at most 365'],
        ['abc', 'days must be a whole number'],
        ['1.5', 'days must be a whole number'],
        ['-1', 'days must be a whole number'],
      ];
      for (const [days, detail] of cases) {
        for (const prefix of ['/api/v2', '/api/v2/sandbox']) {
          const response = await get(`${prefix}/score/address/${A}/history?days=${days}`);
          expect([prefix, days, response.statusCode, response.json()]).toEqual([prefix, days, 400, { detail }]);
        }
      }
      expect(harness.rpc.sent).toEqual([]);
      expect(harness.meter.charged).toBe(0);
    });

    it('the sandbox route asks the sandbox subject, free', async () => {
      harness = await startRouteHarness();
      harness.rpc.answer('credit.sandbox.score.history.v1', history);
      const response = await get(`/api/v2/sandbox/score/address/${A}/history?days=365`);
      expect(response.statusCode).toBe(200);
      expect(harness.rpc.sent).toEqual([{ subject: 'credit.sandbox.score.history.v1', request: { address: A, days: 365 } }]);
      expect(harness.meter.admitted).toEqual([expect.objectContaining({ cost: 0 })]);
      expect(harness.meter.charged).toBe(0);
    });
  });

  it('never bills the sandbox route', async () => {
    harness = await startRouteHarness({ x402: true });
    const sandbox = HTTP_OPERATIONS.scoreBatch.subjects.sandbox;
    harness.rpc.answer(sandbox, () => ({ scores: [score(A), score(B)], count: 2 }));
    const response = await get(`/api/v2/sandbox/score/batch/?address=${A},${B}`);
    expect(response.statusCode).toBe(200);
    expect(harness.rpc.sent.map((m) => m.subject)).toEqual([sandbox]);
    // Counted against the rate limit only: no CU, nothing to settle, no payment.
    expect(harness.meter.admitted).toEqual([expect.objectContaining({ cost: 0 })]);
    expect(harness.meter.settled).toEqual([]);
    expect(harness.meter.charged).toBe(0);
    // Without a key the sandbox is 401, never the x402 path.
    expect((await get(`/api/v2/sandbox/score/batch/?address=${A}`, {})).statusCode).toBe(401);
  });

  it('counts each production request of a key by how it was answered, and nothing of the sandbox or of a bad key', async () => {
    harness = await startRouteHarness();
    harness.rpc.answer('credit.score.address.v1', (request) => {
      if (request.address === B) throw new DomainError('service_unavailable', 'scoring is away');
      if (request.address === C) throw new DomainError('no_activity', 'nothing on chain');
      return score(request.address as string);
    });
    harness.rpc.answer(HTTP_OPERATIONS.scoreAddress.subjects.sandbox, (request) => score(request.address as string));
    expect((await get(`/api/v2/score/address/${A}`)).statusCode).toBe(200);
    expect((await get(`/api/v2/score/address/${A}`)).statusCode).toBe(200);
    expect((await get(`/api/v2/score/address/${C}`)).statusCode).toBe(404);
    expect((await get(`/api/v2/score/address/${B}`)).statusCode).toBe(503);
    harness.meter.decision = 'rate_limited';
    expect((await get(`/api/v2/score/address/${A}`)).statusCode).toBe(429);
    expect((await get(`/api/v2/sandbox/score/address/${A}`)).statusCode).toBe(429);
    harness.meter.decision = 'admitted';
    expect((await get(`/api/v2/sandbox/score/address/${A}`)).statusCode).toBe(200);
    expect((await get(`/api/v2/score/address/${A}`, { authorization: 'Bearer sk_live_wrong' })).statusCode).toBe(401);
    const counts = await harness.statusCounts();
    const byClass = Object.fromEntries(counts.map((c) => [c.statusClass, c.requests]));
    expect(byClass).toEqual({ '2xx': 2, '4xx': 1, '5xx': 1, '429': 1 });
    const today = new Date().toISOString().slice(0, 10);
    for (const count of counts) expect(count).toMatchObject({ accountId: harness.account.id, keyId: 'key_harness', day: today });
  });
});
