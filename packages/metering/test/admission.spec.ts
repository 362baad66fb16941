import type { RatePolicy, Meter } from '../src/meter';
import { meterWorld } from './meter-world';

/**
 * Admission against a real Redis and Postgres: the rate limit before the credit, exact charges under
 * contention, one script call per turn answered as one by one, and free requests' leases.
 */
const w = meterWorld();

it('charges exactly the allowance under contention: 2,000 concurrent 1-CU admissions, 300 CU → 300 admitted, the rest refused for credit', async () => {
  const id = await w.account('enterprise');
  const m = w.meter();
  const results = await Promise.all(Array.from({ length: 2_000 }, () => m.admit(w.request(id, { allowance: 300 }))));
  const admitted = results.filter((r) => r.kind === 'admitted').length;
  const refused = results.filter((r) => r.kind === 'credit_exceeded').length;
  expect({ admitted, refused }).toEqual({ admitted: 300, refused: 1_700 });
  expect((await m.usage(id)).used).toBe(300);

  // well-formed entries are copied into Postgres as the outbox's lines, never through the checked path
  const calls = { insert: 0, insertLines: 0 };
  await w.writeLedger(
    w.pipeline('c1', undefined, {
      insert: (rows) => (calls.insert++, w.ledger.insert(rows)),
      insertLines: (text) => (calls.insertLines++, w.ledger.insertLines(text)),
    }),
  );
  expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 300, byOperation: { scoreAddress: 300 } });
  expect(calls.insert).toBe(0);
  expect(calls.insertLines).toBeGreaterThan(0);
});

it('the rate limit comes first and charges nothing; the bucket refills continuously, not at the minute', async () => {
  const id = await w.account();
  const m = w.meter();
  const policy: RatePolicy = { name: 'api', capacity: 10, windowMs: 60_000 };
  for (let i = 0; i < 10; i++) expect((await m.admit(w.request(id, { policy }))).kind).toBe('admitted');
  const limited = await m.admit(w.request(id, { policy }));
  expect(limited).toMatchObject({ kind: 'rate_limited', retryAfterMs: 6_000 });
  expect((await m.usage(id)).used).toBe(10);
  w.now += 6_000; // one token back (10 a minute)
  expect((await m.admit(w.request(id, { policy }))).kind).toBe('admitted');
  expect((await m.admit(w.request(id, { policy }))).kind).toBe('rate_limited');
  expect((await m.usage(id)).used).toBe(11);
});

it("one script call admits a hot account's requests in order, as one by one: credit, then the rate limit, another account apart", async () => {
  const hot = await w.account('enterprise');
  const other = await w.account('enterprise');
  const m = w.meter();
  const policy: RatePolicy = { name: 'api', capacity: 5, windowMs: 60_000 };
  const hotRequest = (operation: string) => w.request(hot, { policy, allowance: 3, operation });
  const otherRequest = () => w.request(other, { operation: 'reportFull', cost: 7 });
  // Each counter seeded first (a request of each): hot has used 1 CU and 1 of its 5 tokens.
  expect((await m.admit(hotRequest('scoreAddress'))).kind).toBe('admitted');
  expect((await m.admit(otherRequest())).kind).toBe('admitted');
  // Issued in one tick: one script call carries them all, in this order.
  const results = await Promise.all([
    m.admit(hotRequest('scoreAddress')),
    m.admit(otherRequest()),
    m.admit(hotRequest('reportTotal')),
    m.admit(hotRequest('scoreAddress')), // the 4th CU of 3: a token used, nothing charged
    m.admit(otherRequest()),
    m.admit(hotRequest('scoreAddress')), // the 5th token, over the allowance too
    m.admit(hotRequest('scoreAddress')), // no token left
    m.admit(hotRequest('scoreAddress')),
  ]);
  expect(results.map((r) => r.kind)).toEqual([
    'admitted',
    'admitted',
    'admitted',
    'credit_exceeded',
    'admitted',
    'credit_exceeded',
    'rate_limited',
    'rate_limited',
  ]);
  expect(results.map((r) => (r.kind === 'admitted' ? r.reservation?.used : undefined))).toEqual([
    2,
    14,
    3,
    undefined,
    21,
    undefined,
    undefined,
    undefined,
  ]);
  expect(await m.usage(hot)).toMatchObject({ used: 3, byOperation: { scoreAddress: 2, reportTotal: 1 } });
  expect(await m.usage(other)).toMatchObject({ used: 21, byOperation: { reportFull: 21 } });
  // The bucket was left with no token: the next request waits for the refill.
  expect((await m.admit(w.request(hot, { policy, allowance: 10 }))).kind).toBe('rate_limited');
});

it("a hot account's requests of one tick go as one item of the script call, each with its own answer and its own ledger row", async () => {
  const id = await w.account('enterprise');
  const m = w.meter();
  const policy: RatePolicy = { name: 'api', capacity: 9, windowMs: 60_000 };
  expect((await m.admit(w.request(id, { policy }))).kind).toBe('admitted'); // seeds the counter: 1 CU, 8 tokens left
  // request ids as a caller may send them: quotes, a backslash, a tab, a newline, a line separator
  const requestId = (i: number) => `r${i} "q" \\ \t \n\r \u2028`;
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) => m.admit(w.request(id, { policy, requestId: requestId(i), keyId: i % 2 === 0 ? 'k"1' : null }))),
  );
  expect(results.map((r) => r.kind)).toEqual([...Array<string>(8).fill('admitted'), ...Array<string>(4).fill('rate_limited')]);
  expect(results.map((r) => (r.kind === 'admitted' ? r.reservation?.used : undefined)).slice(0, 8)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  expect(results.map((r) => r.rate.remaining).slice(0, 8)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
  const charges = results.flatMap((r) => (r.kind === 'admitted' && r.reservation ? [r.reservation.chargeId] : []));
  expect(new Set(charges).size).toBe(8);
  expect((await m.usage(id)).used).toBe(9);
  // the outbox holds each charge as a LedgerEntry's line
  const entries = await w.outboxEntries();
  expect(entries.filter((e) => charges.includes(e.chargeId))).toEqual(
    charges.map((chargeId, i) => ({
      entryId: chargeId,
      chargeId,
      accountId: id,
      keyId: i % 2 === 0 ? 'k"1' : null,
      operation: 'scoreAddress',
      kind: 'charge',
      cu: 1,
      statusCode: null,
      requestId: requestId(i),
      period: '2026-11',
      at: w.now,
    })),
  );

  await w.writeLedger();
  const rows = await w.ledger.entriesOfAccount(id);
  expect(rows).toHaveLength(9);
  const byCharge = new Map(rows.map((r) => [r.chargeId, r.requestId]));
  expect(charges.map((c) => byCharge.get(c))).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(requestId));
});

it('an item that crosses the allowance, then the rate limit: each request answered as one by one, only the charged ones in the outbox', async () => {
  const id = await w.account('pro');
  const m = w.meter();
  const policy: RatePolicy = { name: 'api', capacity: 6, windowMs: 60_000 };
  const charge = (requestId: string) => w.request(id, { policy, cost: 2, allowance: 9, requestId });
  expect((await m.admit(charge('seed'))).kind).toBe('admitted'); // 2 CU used, 5 tokens left
  w.now += 5_000; // half a token back: 5.5
  // ids that hold an escaped newline, the character between two outbox entries where the script cuts
  const requestId = (i: number) => `r${i}\n${i}\t\\n`;
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) => m.admit(charge(requestId(i)))));
  // 5 take a token; of those, 3 fit the allowance (2 + 3 × 2 = 8 of 9); the other 3 find no token
  expect(results.map((r) => r.kind)).toEqual([
    'admitted',
    'admitted',
    'admitted',
    'credit_exceeded',
    'credit_exceeded',
    'rate_limited',
    'rate_limited',
    'rate_limited',
  ]);
  expect(results.map((r) => (r.kind === 'admitted' ? r.reservation?.used : r.kind === 'credit_exceeded' ? r.used : undefined))).toEqual([
    4,
    6,
    8,
    8,
    8,
    undefined,
    undefined,
    undefined,
  ]);
  // tokens left after each: 4.5, 3.5, … 0.5; seconds until full: (6 − left) × 10
  expect(results.map((r) => [r.rate.remaining, r.rate.resetSeconds])).toEqual([
    [4, 15],
    [3, 25],
    [2, 35],
    [1, 45],
    [0, 55],
    [0, 55],
    [0, 55],
    [0, 55],
  ]);
  expect(results.slice(5).map((r) => (r.kind === 'rate_limited' ? r.retryAfterMs : undefined))).toEqual([5_000, 5_000, 5_000]);
  expect(await m.usage(id)).toMatchObject({ used: 8, byOperation: { scoreAddress: 8 } });

  const entries = await w.outboxEntries();
  expect(entries.map((e) => e.requestId)).toEqual(['seed', requestId(0), requestId(1), requestId(2)]);
  await w.writeLedger();
  expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 8, byOperation: { scoreAddress: 8 } });
});

it('two lease refills out at once for one bucket add up: every token is used before the next script call', async () => {
  const id = await w.account();
  const policy: RatePolicy = { name: 'api', capacity: 200, windowMs: 60_000 }; // leases of 10
  const m = w.meter();
  const free = () => m.admit(w.request(id, { cost: 0, policy }));
  const first = free();
  // right after the first call is sent, before its reply can be read: a second call for the same bucket
  const { second } = await new Promise<{ second: ReturnType<typeof free> }>((resolve) => setImmediate(() => resolve({ second: free() })));
  expect(second).toBeInstanceOf(Promise);
  expect((await Promise.all([first, second])).map((r) => r.kind)).toEqual(['admitted', 'admitted']);
  expect(Number(await w.redis.hget(w.keys.bucket('api', id), 't'))).toBe(180); // two leases of 10 taken
  for (let i = 0; i < 18; i++) expect(free()).not.toBeInstanceOf(Promise); // both leases' other 9, no script call
  const next = free();
  expect(next).toBeInstanceOf(Promise);
  expect((await next).kind).toBe('admitted');
});

it('free requests draw from leases, and two replicas together never admit more than the limit', async () => {
  const id = await w.account();
  const policy: RatePolicy = { name: 'api', capacity: 100, windowMs: 60_000 };
  const [a, b] = [w.meter(), w.meter()];
  const free = (m: Meter) => m.admit(w.request(id, { cost: 0, policy }));
  const results = await Promise.all([...Array.from({ length: 150 }, () => free(a)), ...Array.from({ length: 150 }, () => free(b))]);
  expect(results.filter((r) => r.kind === 'admitted')).toHaveLength(100);
  // Sequential requests use a replica's lease: one script call per lease, never past the bucket.
  w.now += 6_000; // 10 tokens back
  const sequential = [];
  for (let i = 0; i < 12; i++) sequential.push((await free(a)).kind);
  expect(sequential.filter((k) => k === 'admitted')).toHaveLength(10);
  expect((await w.meter().usage(id)).used).toBe(0);
});
