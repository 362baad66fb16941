import { Redis } from 'ioredis';
import { AccountRepository } from '@credit/db/account-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import type { LedgerEntry } from '../src/ledger-entry';
import { ledgerLine, parseLedgerLines } from '../src/ledger-line';
import { LedgerPipeline } from '../src/ledger-pipeline';
import { Meter, type AdmitRequest, type RatePolicy } from '../src/meter';
import { MeterKeys } from '../src/meter-keys';

/**
 * The metering scripts and the ledger pipeline against a real Redis and a real Postgres: the rate
 * limit before the credit, exact charges under contention, refunds, the month's rollover, a
 * counter rebuilt from the ledger, and a ledger that equals the counter once drained.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WIDE: RatePolicy = { name: 'api', capacity: 1_000_000, windowMs: 60_000 };

let database: TestDatabase;
let db: Db;
let redis: Redis;
let prefix: string;
let keys: MeterKeys;
let ledger: UsageLedgerRepository;
let now: number;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrismaClient(database.url);
  redis = new Redis(redisOptionsFromUrl(REDIS_URL));
  ledger = new UsageLedgerRepository(db);
});

beforeEach(() => {
  prefix = uniquePrefix('meter');
  keys = new MeterKeys(prefix);
  now = Date.UTC(2026, 10, 23, 12, 0, 0);
});

afterEach(async () => {
  await deleteKeysWithPrefix(REDIS_URL, prefix);
});

afterAll(async () => {
  redis?.disconnect();
  await db?.$disconnect();
  await database?.drop();
});

async function account(plan: 'free' | 'pro' | 'enterprise' = 'free'): Promise<string> {
  const { account } = await new AccountRepository(db).findOrCreateByEmail(`${uniquePrefix('a')}@example.com`, plan);
  return account.id;
}

function meter(): Meter {
  return new Meter(redis, keys, ledger, () => now);
}

function request(accountId: string, overrides: Partial<AdmitRequest> = {}): AdmitRequest {
  return { accountId, keyId: null, operation: 'scoreAddress', cost: 1, allowance: 1_000, policy: WIDE, requestId: 'r', ...overrides };
}

function pipeline(
  consumer = 'c1',
  warn: (message: string) => void = () => undefined,
  store: Pick<UsageLedgerRepository, 'insert' | 'insertLines'> = ledger,
  connection: Redis = redis,
): LedgerPipeline {
  return new LedgerPipeline({
    redis: connection,
    connection: { ...redisOptionsFromUrl(REDIS_URL), maxRetriesPerRequest: null },
    keys,
    store,
    consumer,
    flushMs: 50,
    batchMax: 100,
    claimIdleMs: 200,
    lockMs: 5_000,
    warn,
  });
}

async function drain(p: LedgerPipeline): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await p.pump();
    if (await p.drained()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the ledger did not drain');
}

/** Starts `p`, lets it move everything the outbox holds into Postgres, then closes it. */
async function writeLedger(p: LedgerPipeline = pipeline()): Promise<void> {
  await p.start();
  try {
    await drain(p);
  } finally {
    await p.close();
  }
}

/** Every entry the outbox holds, in order, each line checked (none may be malformed). */
async function outboxEntries() {
  const outbox = await redis.xrange(keys.outbox, '-', '+');
  const { entries, malformed } = parseLedgerLines(outbox.map(([, fields]) => fields[1]!).join(''));
  expect(malformed).toEqual([]);
  return entries;
}

it('charges exactly the allowance under contention: 2,000 concurrent 1-CU admissions, 300 CU → 300 admitted, the rest refused for credit', async () => {
  const id = await account('enterprise');
  const m = meter();
  const results = await Promise.all(Array.from({ length: 2_000 }, () => m.admit(request(id, { allowance: 300 }))));
  const admitted = results.filter((r) => r.kind === 'admitted').length;
  const refused = results.filter((r) => r.kind === 'credit_exceeded').length;
  expect({ admitted, refused }).toEqual({ admitted: 300, refused: 1_700 });
  expect((await m.usage(id)).used).toBe(300);

  // well-formed entries are copied into Postgres as the outbox's lines, never through the checked path
  const calls = { insert: 0, insertLines: 0 };
  await writeLedger(
    pipeline('c1', undefined, {
      insert: (rows) => (calls.insert++, ledger.insert(rows)),
      insertLines: (text) => (calls.insertLines++, ledger.insertLines(text)),
    }),
  );
  expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 300, byOperation: { scoreAddress: 300 } });
  expect(calls.insert).toBe(0);
  expect(calls.insertLines).toBeGreaterThan(0);
});

it('the rate limit comes first and charges nothing; the bucket refills continuously, not at the minute', async () => {
  const id = await account();
  const m = meter();
  const policy: RatePolicy = { name: 'api', capacity: 10, windowMs: 60_000 };
  for (let i = 0; i < 10; i++) expect((await m.admit(request(id, { policy }))).kind).toBe('admitted');
  const limited = await m.admit(request(id, { policy }));
  expect(limited).toMatchObject({ kind: 'rate_limited', retryAfterMs: 6_000 });
  expect((await m.usage(id)).used).toBe(10);
  now += 6_000; // one token back (10 a minute)
  expect((await m.admit(request(id, { policy }))).kind).toBe('admitted');
  expect((await m.admit(request(id, { policy }))).kind).toBe('rate_limited');
  expect((await m.usage(id)).used).toBe(11);
});

it("one script call admits a hot account's requests in order, as one by one: credit, then the rate limit, another account apart", async () => {
  const hot = await account('enterprise');
  const other = await account('enterprise');
  const m = meter();
  const policy: RatePolicy = { name: 'api', capacity: 5, windowMs: 60_000 };
  const hotRequest = (operation: string) => request(hot, { policy, allowance: 3, operation });
  const otherRequest = () => request(other, { operation: 'reportFull', cost: 7 });
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
  expect((await m.admit(request(hot, { policy, allowance: 10 }))).kind).toBe('rate_limited');
});

it("a hot account's requests of one tick go as one item of the script call, each with its own answer and its own ledger row", async () => {
  const id = await account('enterprise');
  const m = meter();
  const policy: RatePolicy = { name: 'api', capacity: 9, windowMs: 60_000 };
  expect((await m.admit(request(id, { policy }))).kind).toBe('admitted'); // seeds the counter: 1 CU, 8 tokens left
  // request ids as a caller may send them: quotes, a backslash, a tab, a newline, a line separator
  const requestId = (i: number) => `r${i} "q" \\ \t \n\r \u2028`;
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) => m.admit(request(id, { policy, requestId: requestId(i), keyId: i % 2 === 0 ? 'k"1' : null }))),
  );
  expect(results.map((r) => r.kind)).toEqual([...Array<string>(8).fill('admitted'), ...Array<string>(4).fill('rate_limited')]);
  expect(results.map((r) => (r.kind === 'admitted' ? r.reservation?.used : undefined)).slice(0, 8)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  expect(results.map((r) => r.rate.remaining).slice(0, 8)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
  const charges = results.flatMap((r) => (r.kind === 'admitted' && r.reservation ? [r.reservation.chargeId] : []));
  expect(new Set(charges).size).toBe(8);
  expect((await m.usage(id)).used).toBe(9);
  // the outbox holds each charge as a LedgerEntry's line
  const entries = await outboxEntries();
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
      at: now,
    })),
  );

  await writeLedger();
  const rows = await ledger.entriesOfAccount(id);
  expect(rows).toHaveLength(9);
  const byCharge = new Map(rows.map((r) => [r.chargeId, r.requestId]));
  expect(charges.map((c) => byCharge.get(c))).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map(requestId));
});

it('an item that crosses the allowance, then the rate limit: each request answered as one by one, only the charged ones in the outbox', async () => {
  const id = await account('pro');
  const m = meter();
  const policy: RatePolicy = { name: 'api', capacity: 6, windowMs: 60_000 };
  const charge = (requestId: string) => request(id, { policy, cost: 2, allowance: 9, requestId });
  expect((await m.admit(charge('seed'))).kind).toBe('admitted'); // 2 CU used, 5 tokens left
  now += 5_000; // half a token back: 5.5
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

  const entries = await outboxEntries();
  expect(entries.map((e) => e.requestId)).toEqual(['seed', requestId(0), requestId(1), requestId(2)]);
  await writeLedger();
  expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 8, byOperation: { scoreAddress: 8 } });
});

it('a refund gives back what was not served, and the ledger holds the charge and the refund under one charge id', async () => {
  const id = await account();
  const m = meter();
  const admitted = await m.admit(request(id, { operation: 'scoreBatch', cost: 5 }));
  if (admitted.kind !== 'admitted' || admitted.reservation === undefined) throw new Error('not admitted');
  expect(await m.settle(admitted.reservation, 3, 200)).toBe(3);
  const failed = await m.admit(request(id, { operation: 'reportFull', cost: 7 }));
  if (failed.kind !== 'admitted' || failed.reservation === undefined) throw new Error('not admitted');
  expect(await m.settle(failed.reservation, 0, 503)).toBe(3);
  expect(await m.usage(id)).toMatchObject({ used: 3, byOperation: { scoreBatch: 3 } });

  await writeLedger();
  const entries = await ledger.entriesOfAccount(id);
  const rows = entries.map((e) => [e.operation, e.kind, e.cu, e.statusCode]);
  expect(rows.sort()).toEqual([
    ['reportFull', 'charge', 7, null],
    ['reportFull', 'refund', -7, 503],
    ['scoreBatch', 'charge', 5, null],
    ['scoreBatch', 'refund', -2, 200],
  ]);
  const batch = entries.filter((e) => e.operation === 'scoreBatch');
  expect(batch[1]!.chargeId).toBe(batch[0]!.chargeId);
  expect(batch.map((e) => e.entryId).sort()).toEqual([batch[0]!.chargeId, `${batch[0]!.chargeId}:refund`].sort());
  expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 3, byOperation: { scoreBatch: 3 } });
});

it('the month rolls over by itself: a new counter, the old month kept apart; a refund lands in its charge’s month', async () => {
  const id = await account();
  const m = meter();
  now = Date.UTC(2026, 10, 30, 23, 59, 59, 500);
  for (let i = 0; i < 3; i++) await m.admit(request(id, { allowance: 3 }));
  const refused = await m.admit(request(id, { allowance: 3 }));
  expect(refused).toMatchObject({ kind: 'credit_exceeded', used: 3 });
  expect(refused.kind === 'credit_exceeded' && refused.period.end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  const late = await m.admit(request(id, { allowance: 10 }));
  now = Date.UTC(2026, 11, 1, 0, 0, 1);
  expect((await m.admit(request(id, { allowance: 3 }))).kind).toBe('admitted');
  if (late.kind !== 'admitted' || late.reservation === undefined) throw new Error('not admitted');
  await m.settle(late.reservation, 0, 500);
  expect(await m.usage(id)).toMatchObject({ used: 1, period: { id: '2026-12' } });
  expect(await m.peek(id, '2026-11')).toMatchObject({ used: 3 });
});

it('a counter Redis lost is rebuilt from the ledger before anything is charged on it', async () => {
  const id = await account();
  const m = meter();
  for (let i = 0; i < 4; i++) await m.admit(request(id, { operation: i % 2 === 0 ? 'scoreAddress' : 'identityAttestations' }));
  await writeLedger();
  await redis.del(keys.counter(id, '2026-11'));

  expect(await m.usage(id)).toMatchObject({ used: 4, byOperation: { scoreAddress: 2, identityAttestations: 2 } });
  await redis.del(keys.counter(id, '2026-11'));
  const results = await Promise.all(Array.from({ length: 20 }, () => m.admit(request(id, { allowance: 10 }))));
  expect(results.filter((r) => r.kind === 'admitted')).toHaveLength(6);
  expect((await m.usage(id)).used).toBe(10);
});

it('entries a dead consumer read and never acknowledged are taken over and written once', async () => {
  const id = await account();
  const m = meter();
  for (let i = 0; i < 30; i++) await m.admit(request(id));
  await redis.xgroup('CREATE', keys.outbox, 'ledger', '0', 'MKSTREAM');
  // A consumer reads 10 entries and dies before queueing them.
  await redis.xreadgroup('GROUP', 'ledger', 'dead', 'COUNT', 10, 'STREAMS', keys.outbox, '>');
  const p = pipeline('alive');
  await p.start();
  await new Promise((r) => setTimeout(r, 300)); // past claimIdleMs
  await drain(p);
  await p.close();
  expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 30, byOperation: { scoreAddress: 30 } });
  expect(await ledger.entriesOfAccount(id)).toHaveLength(30);
});

it('a replica that dies between queueing a batch and acknowledging it: the batch is written once, nothing lost', async () => {
  const id = await account();
  const m = meter();
  for (let i = 0; i < 30; i++) await m.admit(request(id, { requestId: `r${i}` }));
  // The dying replica queues the outbox's batch (its ids), then dies before its XACK.
  const dying = new Redis(redisOptionsFromUrl(REDIS_URL));
  try {
    dying.xack = (() => Promise.reject(new Error('killed'))) as unknown as Redis['xack'];
    const warnings: string[] = [];
    const first = pipeline('dying', (message) => warnings.push(message), ledger, dying);
    await first.pump(); // makes the group
    await first.pump(); // queues the batch; the XACK fails
    await first.close();
    expect(warnings.some((w) => w.includes('killed'))).toBe(true);
  } finally {
    dying.disconnect();
  }
  expect(await redis.xlen(keys.outbox)).toBe(30);
  expect((await redis.xpending(keys.outbox, 'ledger'))[0]).toBe(30);
  await new Promise((r) => setTimeout(r, 300)); // past claimIdleMs: the survivor takes the entries over too
  await writeLedger(pipeline('alive'));
  const rows = await ledger.entriesOfAccount(id);
  expect(rows.map((r) => r.requestId).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `r${i}`).sort());
  expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 30, byOperation: { scoreAddress: 30 } });
  expect(await redis.xlen(keys.outbox)).toBe(0);
});

it('outbox messages the store refuses are written entry by entry: the good entries land once, the malformed are logged and skipped', async () => {
  const id = await account();
  const m = meter();
  for (let i = 0; i < 3; i++) await m.admit(request(id, { keyId: 'k1', requestId: `r${i}` }));
  const entry = (chargeId: string, fields: Partial<LedgerEntry> = {}) =>
    ledgerLine({
      entryId: chargeId,
      chargeId,
      accountId: id,
      keyId: null,
      operation: 'reportFull',
      kind: 'charge',
      cu: 2,
      statusCode: null,
      requestId: 'x',
      period: '2026-11',
      at: now + 1,
      ...fields,
    });
  // one message with a good entry and two the check refuses, one cut off, one empty
  const gift = entry('bad-kind').replace('\tcharge\t', '\tgift\t');
  await redis.xadd(keys.outbox, '*', 'e', `${entry('good-1')}${entry('bad-cu', { cu: 1.5 })}${gift}`);
  await redis.xadd(keys.outbox, '*', 'e', entry('cut-off').slice(0, 60));
  await redis.xadd(keys.outbox, '*', 'e', '');
  await redis.xadd(keys.outbox, '*', 'e', entry('good-2', { keyId: 'k2', statusCode: 200 }));
  const warnings: string[] = [];
  await writeLedger(pipeline('c1', (message) => warnings.push(message)));
  const rows = await ledger.entriesOfAccount(id);
  expect(rows.map((r) => r.entryId).filter((e) => /^(good|bad|cut)/.test(e))).toEqual(['good-1', 'good-2']);
  expect(rows.find((r) => r.entryId === 'good-2')).toMatchObject({ keyId: 'k2', statusCode: 200, cu: 2, occurredAt: new Date(now + 1) });
  expect(rows.filter((r) => r.operation === 'scoreAddress').map((r) => [r.keyId, r.requestId, r.occurredAt.getTime()])).toEqual([
    ['k1', 'r0', now],
    ['k1', 'r1', now],
    ['k1', 'r2', now],
  ]);
  expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 7, byOperation: { scoreAddress: 3, reportFull: 4 } });
  expect(warnings.filter((w) => w.includes('skipped'))).toHaveLength(3);
});

it('two lease refills out at once for one bucket add up: every token is used before the next script call', async () => {
  const id = await account();
  const policy: RatePolicy = { name: 'api', capacity: 200, windowMs: 60_000 }; // leases of 10
  const m = meter();
  const free = () => m.admit(request(id, { cost: 0, policy }));
  const first = free();
  // right after the first call is sent, before its reply can be read: a second call for the same bucket
  const { second } = await new Promise<{ second: ReturnType<typeof free> }>((resolve) => setImmediate(() => resolve({ second: free() })));
  expect(second).toBeInstanceOf(Promise);
  expect((await Promise.all([first, second])).map((r) => r.kind)).toEqual(['admitted', 'admitted']);
  expect(Number(await redis.hget(keys.bucket('api', id), 't'))).toBe(180); // two leases of 10 taken
  for (let i = 0; i < 18; i++) expect(free()).not.toBeInstanceOf(Promise); // both leases' other 9, no script call
  const next = free();
  expect(next).toBeInstanceOf(Promise);
  expect((await next).kind).toBe('admitted');
});

it('free requests draw from leases, and two replicas together never admit more than the limit', async () => {
  const id = await account();
  const policy: RatePolicy = { name: 'api', capacity: 100, windowMs: 60_000 };
  const [a, b] = [meter(), meter()];
  const free = (m: Meter) => m.admit(request(id, { cost: 0, policy }));
  const results = await Promise.all([...Array.from({ length: 150 }, () => free(a)), ...Array.from({ length: 150 }, () => free(b))]);
  expect(results.filter((r) => r.kind === 'admitted')).toHaveLength(100);
  // Sequential requests use a replica's lease: one script call per lease, never past the bucket.
  now += 6_000; // 10 tokens back
  const sequential = [];
  for (let i = 0; i < 12; i++) sequential.push((await free(a)).kind);
  expect(sequential.filter((k) => k === 'admitted')).toHaveLength(10);
  expect((await meter().usage(id)).used).toBe(0);
});

describe('reads ahead of their admission', () => {
  it('only within what the last answer left: tokens and CU for every request let ahead, none before an answer or once it is a second old', async () => {
    const id = await account('enterprise');
    const m = meter();
    const policy: RatePolicy = { name: 'api', capacity: 4, windowMs: 60_000 };
    const read = (cost = 1) => request(id, { policy, allowance: 100, cost });
    expect(m.admitAhead(read())).toBeUndefined(); // nothing seen yet: wait
    expect((await m.admit(read())).kind).toBe('admitted'); // 3 tokens left
    const two = [m.admitAhead(read()), m.admitAhead(read())];
    expect(two.every((a) => a !== undefined)).toBe(true);
    expect((await Promise.all(two)).map((a) => a!.kind)).toEqual(['admitted', 'admitted']);
    // answered, they count no longer: the token left lets one more go ahead, and no other
    const last = m.admitAhead(read());
    expect(last).toBeDefined();
    expect(m.admitAhead(read())).toBeUndefined();
    expect((await last!).kind).toBe('admitted');
    // the answer left no token: an account at its limit waits for its admission
    expect(m.admitAhead(read())).toBeUndefined();
    now += 15_000; // one token back, but the answer is older than a second
    expect(m.admitAhead(read())).toBeUndefined();
    expect((await m.admit(read())).kind).toBe('admitted');
    expect((await m.usage(id)).used).toBe(5);

    // tokens to spare: an answer is trusted for under a second
    const other = await account('enterprise');
    const priced = (cost: number) => request(other, { allowance: 100, cost });
    expect((await m.admit(priced(1))).kind).toBe('admitted');
    now += 1_000;
    expect(m.admitAhead(priced(1))).toBeUndefined();
    expect((await m.admit(priced(1))).kind).toBe('admitted');
    // CU: of 98 left, a 60-CU read fits, and while it is out a 39-CU one does not; once it is
    // admitted, the 38 CU left let one more go ahead
    const big = m.admitAhead(priced(60));
    expect(big).toBeDefined();
    expect(m.admitAhead(priced(39))).toBeUndefined();
    expect((await big!).kind).toBe('admitted');
    const rest = m.admitAhead(priced(38));
    expect(rest).toBeDefined();
    expect((await rest!).kind).toBe('admitted');
    expect((await m.usage(other)).used).toBe(100);
    expect(m.admitAhead(priced(1))).toBeUndefined();
  });

  it("admissions of reads running ahead wait a moment for others to join their script call; a waiting request's turn sends them all", async () => {
    const id = await account('enterprise');
    const m = new Meter(redis, keys, ledger, () => now, 60_000); // a window no test waits out
    expect((await m.admit(request(id))).kind).toBe('admitted'); // an answer to run ahead on
    const spy = jest.spyOn(redis as unknown as { meterAdmit: (...args: unknown[]) => unknown }, 'meterAdmit');
    try {
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      const first = m.admitAhead(request(id));
      await turn();
      const second = m.admitAhead(request(id));
      await turn();
      await turn();
      expect(spy).not.toHaveBeenCalled();
      const waiting = m.admit(request(id)); // waits for its answer: sent at its turn's end
      const answers = await Promise.all([first!, second!, waiting]);
      expect(answers.map((a) => a.kind)).toEqual(['admitted', 'admitted', 'admitted']);
      expect(spy).toHaveBeenCalledTimes(1);
      expect((await m.usage(id)).used).toBe(4);
    } finally {
      spy.mockRestore();
    }
    // alone, they go when the window ends
    const quick = new Meter(redis, keys, ledger, () => now, 5);
    expect((await quick.admit(request(id))).kind).toBe('admitted');
    expect((await quick.admitAhead(request(id))!).kind).toBe('admitted');
  });

  it('a read let ahead that another replica outran is refused like any request, and charges nothing', async () => {
    const id = await account('enterprise');
    const [a, b] = [meter(), meter()];
    const read = () => request(id, { allowance: 3 });
    expect((await a.admit(read())).kind).toBe('admitted'); // a saw 2 CU left
    expect((await b.admit(read())).kind).toBe('admitted');
    expect((await b.admit(read())).kind).toBe('admitted'); // spent by b
    const ahead = a.admitAhead(read());
    expect(ahead).toBeDefined();
    expect(await ahead).toMatchObject({ kind: 'credit_exceeded', used: 3 });
    expect(a.admitAhead(read())).toBeUndefined(); // a has seen the allowance spent
    expect((await a.usage(id)).used).toBe(3);
    await writeLedger();
    expect(await ledger.periodTotals(id, '2026-11')).toEqual({ used: 3, byOperation: { scoreAddress: 3 } });
  });
});
