import { connect } from 'nats';
import { getAddress } from 'viem';
import { runCli } from '@credit/cli/run-cli';
import { AccountRepository } from '@credit/db/account-repository';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath, type OperationId } from '@credit/contracts/http-operations';
import type { CastRole } from '@credit/devnet/state-file';
import type { RunningGateway } from '@credit/gateway/create-gateway';
import { startReferenceStack, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';
import { storm } from './support/storm';

/**
 * CU metering through the real gateway, with the real scoring, reports and identity services on
 * the reference devnet: each operation's price, per-address prices, refunds, the sandbox free,
 * the rate limit, the credit limit and an upgrade lifting it, exact charges under contention on
 * one and on two gateway replicas, and the month's rollover (an injected clock).
 */
jest.setTimeout(240_000);

let reference: ReferenceStack;
let replica: RunningGateway;
let clockOffset = 0;
/** Set: the gateways' clock stands still there. */
let frozenAt: number | undefined;
const clock = () => frozenAt ?? Date.now() + clockOffset;

const cast = (role: CastRole) => getAddress(reference.world.devnet.state.cast[role]!.address);

beforeAll(async () => {
  reference = await startReferenceStack(['scoring', 'reports'], {
    gatewayEnv: { RATE_LIMIT_FREE_PER_MIN: '10', RATE_LIMIT_PRO_PER_MIN: '100', LEDGER_FLUSH_MS: '100' },
    clock,
  });
  replica = await reference.stack.startGatewayReplica();
}, 600_000);

afterAll(async () => {
  await reference?.close();
});

const url = () => reference.stack.url;
const usage = async (key: string) => (await http(url(), '/users/me/usage', { key })).body;

async function keyFor(plan: 'free' | 'pro' | 'enterprise', monthlyCu: number | null = null) {
  const created = await reference.stack.createKey({ plan });
  if (monthlyCu !== null) await new AccountRepository(reference.stack.db).setPlan(created.email, plan, monthlyCu);
  return created;
}

/** A request for each operation, with parameters the reference world answers 200 for. */
function callFor(id: OperationId): { path: string; method: string; body?: unknown } {
  const a = cast('healthy_borrower');
  const b = cast('multichain');
  const path = operationPath(id, 'production').replace('{address}', a).replace('{chain_id}', '1');
  switch (id) {
    case 'scoreAggregate':
    case 'reportAggregate':
      return { path: `${path}?address=${a},${b}`, method: 'GET' };
    case 'scoreBatch':
      return { path: `${path}?address=${a},${a.toLowerCase()},${b},not-an-address`, method: 'GET' };
    case 'scoreEnhanced':
      return { path, method: 'POST', body: { total_asset_usd: 50_000 } };
    case 'reportEnhanced':
      return { path, method: 'POST', body: { name: 'bank', total_asset_usd: 1000 } };
    default:
      return { path, method: 'GET' };
  }
}

/** Waits until the ledger's sum for the account's period equals its counter (the queue drained). */
async function ledgerAgrees(accountId: string, key: string): Promise<{ used: number; ledger: number }> {
  const ledger = new UsageLedgerRepository(reference.stack.db);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const counter = await usage(key);
    const totals = await ledger.periodTotals(accountId, counter.period_start.slice(0, 7));
    if (totals.used === counter.used || Date.now() > deadline) return { used: counter.used, ledger: totals.used };
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('prices', () => {
  it('charges each production operation the price of its definition, per address on the distinct addresses analysed', async () => {
    const { key, accountId } = await keyFor('pro');
    const expected: Record<string, number> = {};
    for (const id of OPERATION_IDS) {
      const call = callFor(id);
      const res = await http(url(), call.path, { method: call.method, key, body: call.body });
      expect({ id, status: res.status }).toEqual({ id, status: 200 });
      const price = HTTP_OPERATIONS[id].price;
      const analysed =
        id === 'scoreBatch'
          ? new Set(res.body.scores.map((s: { address: string }) => s.address)).size
          : id === 'reportAggregate'
            ? res.body.report.address.length
            : 1;
      if (price.kind === 'per_address') expect(analysed).toBe(2);
      const cost = price.kind === 'fixed' ? price.cu : price.cu * analysed;
      expect({ id, cost: res.headers.get('x-cu-cost') }).toEqual({ id, cost: String(cost) });
      expect(res.headers.get('ratelimit-policy')).toBe('"api";q=100;w=60');
      expected[id] = cost;
    }
    const total = Object.values(expected).reduce((s, n) => s + n, 0);
    const report = await usage(key);
    expect(report).toMatchObject({ plan: 'pro', monthly_limit: 50_000, used: total, remaining: 50_000 - total, by_operation: expected });
    expect(await ledgerAgrees(accountId, key)).toEqual({ used: total, ledger: total });
  });

  it('charges nothing for a 4xx (bad address, too many addresses, bad body) or a HEAD, nor for the sandbox and /users/me', async () => {
    const { key } = await keyFor('pro');
    const a = cast('healthy_borrower');
    const many = Array.from({ length: 101 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`).join(',');
    const failures = [
      await http(url(), '/api/v2/score/address/not-an-address', { key }),
      await http(url(), `/api/v2/score/batch/?address=${many}`, { key }),
      await http(url(), `/api/v2/report/address/${a}`, { method: 'POST', key, body: { total_asset_usd: 1 } }),
      await http(url(), `/api/v2/score/address/${a}`, {
        method: 'POST',
        key,
        rawBody: '{bad',
        headers: { 'content-type': 'application/json' },
      }),
    ];
    expect(failures.map((r) => r.status)).toEqual([404, 400, 400, 400]);
    expect(failures.slice(0, 3).map((r) => r.headers.get('x-cu-cost'))).toEqual(['0', '0', '0']);
    const head = await http(url(), `/api/v2/score/address/${a}`, { method: 'HEAD', key });
    expect(head.status).toBe(404);
    const sandbox = await http(url(), `/api/v2/sandbox/report/address/${a}`, { key });
    expect(sandbox.status).toBe(200);
    expect(sandbox.headers.get('x-cu-cost')).toBe('0');
    expect((await http(url(), '/users/me', { key })).status).toBe(200);
    expect(await usage(key)).toMatchObject({ used: 0, remaining: 50_000, by_operation: {} });
  });
});

describe('limits', () => {
  it('rate limit: free is 10 a minute, the 11th is 429 rate_limited with Retry-After and charges nothing; /users/me/usage has its own limit', async () => {
    const { key } = await keyFor('free');
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await http(url(), i === 0 ? `/api/v2/score/address/${cast('healthy_borrower')}` : '/users/me', { key });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('ratelimit'));
    }
    expect(remaining[0]).toMatch(/^"api";r=9;t=\d+$/);
    expect(remaining[9]).toMatch(/^"api";r=0;t=\d+$/);
    const limited = await http(url(), `/api/v2/score/address/${cast('healthy_borrower')}`, { key });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      detail: { error: 'rate_limited', message: expect.stringContaining('10 requests a minute'), retry_after: expect.any(Number) },
    });
    expect(Number(limited.headers.get('retry-after'))).toBe(limited.body.detail.retry_after);
    expect(limited.body.detail.retry_after).toBeGreaterThanOrEqual(1);
    expect(limited.body.detail.retry_after).toBeLessThanOrEqual(6);
    expect(limited.headers.get('ratelimit-policy')).toBe('"api";q=10;w=60');
    const report = await http(url(), '/users/me/usage', { key });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ plan: 'free', monthly_limit: 1_000, used: 1, remaining: 999, by_operation: { scoreAddress: 1 } });
    expect(report.headers.get('ratelimit-policy')).toBe('"usage";q=120;w=60');
  });

  it('credit: past the allowance → 429 credit_limit_exceeded as DESIGN §2 has it, nothing charged; an upgrade through the CLI lifts it at once on every replica', async () => {
    const { key, email } = await keyFor('enterprise', 3);
    const a = cast('healthy_borrower');
    const left: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await http(i % 2 === 0 ? url() : replica.url, `/api/v2/score/address/${a}`, { key });
      expect(res.status).toBe(200);
      left.push(res.headers.get('x-cu-remaining'));
    }
    expect(left).toEqual(['2', '1', '0']);
    const refused = await http(replica.url, `/api/v2/score/address/${a}`, { key });
    expect(refused.status).toBe(429);
    const periodEnd = (await usage(key)).period_end;
    expect(refused.body).toEqual({
      detail: {
        error: 'credit_limit_exceeded',
        message: expect.any(String),
        plan: 'enterprise',
        monthly_limit: 3,
        used: 3,
        remaining: 0,
        period_end: periodEnd,
      },
    });
    const out: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
    const env = { DATABASE_URL: reference.stack.databaseUrl, NATS_URL, NATS_SUBJECT_PREFIX: reference.stack.prefix };
    expect(await runCli(['accounts:set-plan', '--email', email, '--plan', 'enterprise', '--monthly-cu', '5'], env, io)).toBe(0);
    for (const gateway of [url(), replica.url]) {
      const res = await http(gateway, `/api/v2/score/address/${a}`, { key });
      expect(res.status).toBe(200);
    }
    expect(await usage(key)).toMatchObject({ monthly_limit: 5, used: 5, remaining: 0 });
  });
});

describe('exact under contention', () => {
  const addresses = () => [cast('healthy_borrower'), cast('multichain'), cast('liquidated')];

  it.each([
    ['one gateway', 1],
    ['two gateway replicas sharing Redis', 2],
  ])('%s: CU charged = 200s = the allowance (300), no 5xx, and the ledger equals the counter once drained', async (_label, replicas) => {
    const { key, accountId } = await keyFor('enterprise', 300);
    const gateways = replicas === 1 ? [url()] : [url(), replica.url];
    const { statuses, errors } = await storm((i) => `${gateways[i % gateways.length]}/api/v2/score/address/${addresses()[i % 3]}`, key);
    expect(Object.keys(errors)).toEqual(['credit_limit_exceeded']);
    expect(statuses).toEqual({ 200: 300, 429: 1_700 });
    expect((await usage(key)).used).toBe(300);
    expect(await ledgerAgrees(accountId, key)).toEqual({ used: 300, ledger: 300 });
  });

  it('a rate-limited plan (issue 35): every request 200 or 429, served = charged, no CU left unspent while refused for credit, no 503', async () => {
    // 2,000 at once on one key with a 300-CU allowance and a rate limit of 1,000 a minute.
    const limited = await reference.stack.startGatewayReplica({ RATE_LIMIT_ENTERPRISE_PER_MIN: '1000' });
    const { key, accountId } = await keyFor('enterprise', 300);
    const { statuses, errors } = await storm((i) => `${limited.url}/api/v2/score/address/${addresses()[i % 3]}`, key);
    expect(errors.rate_limited).toBeGreaterThan(0);
    expect(Object.keys(statuses).sort()).toEqual(['200', '429']);
    const served = statuses[200]!;
    const counter = await usage(key);
    expect(counter.used).toBe(served);
    expect(await ledgerAgrees(accountId, key)).toEqual({ used: served, ledger: served });
    // Refused for credit only once nothing was left to spend.
    if ((errors.credit_limit_exceeded ?? 0) > 0) expect(counter.remaining).toBe(0);
    expect(served + (errors.rate_limited ?? 0) + (errors.credit_limit_exceeded ?? 0)).toBe(2_000);
  });

  it("one account's burst does not crowd out another's request: it is answered while the burst is still being served", async () => {
    const burst = await keyFor('enterprise');
    const other = await keyFor('pro');
    let answered = 0;
    const storming = storm((i) => `${url()}/api/v2/score/address/${addresses()[i % 3]}`, burst.key, 1_000).then((result) => {
      answered = 1_000;
      return result;
    });
    await new Promise((r) => setTimeout(r, 200)); // the burst is under way
    const single = await http(url(), `/api/v2/score/address/${cast('healthy_borrower')}`, { key: other.key });
    const burstAnsweredBefore = answered;
    expect(single.status).toBe(200);
    expect((await storming).statuses).toEqual({ 200: 1_000 });
    expect(burstAnsweredBefore).toBe(0); // the single request was answered before the burst's last
  });
});

describe('reads served ahead of their admission', () => {
  afterEach(() => {
    frozenAt = undefined;
  });

  it("go out only once admitted: a replica's read that another replica outran is answered 429 credit, not the service's answer, and charges nothing", async () => {
    const { key, accountId } = await keyFor('enterprise', 2);
    const path = `/api/v2/score/address/${cast('healthy_borrower')}`;
    // every request that reaches the scoring service, seen by a plain subscriber of its subject
    const nc = await connect({ servers: NATS_URL });
    let reached = 0;
    nc.subscribe(`${reference.stack.prefix}.credit.score.address.v1`, { callback: () => void reached++ });
    await nc.flush();
    try {
      frozenAt = Date.now(); // so "under a second" holds however slow the machine
      expect((await http(url(), path, { key })).status).toBe(200); // the first gateway saw 1 CU left
      expect((await http(replica.url, path, { key })).status).toBe(200); // the replica spends it
      await nc.flush(); // what reached the subject before now has arrived here
      expect(reached).toBe(2);
      const refused = await http(url(), path, { key });
      await nc.flush();
      expect(reached).toBe(3); // it ran ahead: the service answered it
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toMatchObject({ error: 'credit_limit_exceeded', used: 2, remaining: 0 });
      expect(refused.headers.get('x-cu-cost')).toBe('0');
      // the refusal taught the gateway the allowance is spent: nothing more runs ahead
      expect((await http(url(), path, { key })).status).toBe(429);
      await nc.flush();
      expect(reached).toBe(3);
      frozenAt = undefined;
      expect(await usage(key)).toMatchObject({ used: 2, remaining: 0, by_operation: { scoreAddress: 2 } });
      expect(await ledgerAgrees(accountId, key)).toEqual({ used: 2, ledger: 2 });
    } finally {
      await nc.close();
    }
  });
});

describe('the month', () => {
  afterEach(() => {
    clockOffset = 0;
  });

  it('rolls over at midnight UTC on the 1st: a refused account is served again, usage starts at zero', async () => {
    const { key } = await keyFor('enterprise', 2);
    const a = cast('healthy_borrower');
    clockOffset = Date.UTC(2031, 0, 31, 23, 59, 0) - Date.now();
    expect((await http(url(), `/api/v2/score/address/${a}`, { key })).status).toBe(200);
    expect((await http(url(), `/api/v2/report/address/${a}/total/usd/aggregate`, { key })).status).toBe(200);
    const refused = await http(url(), `/api/v2/score/address/${a}`, { key });
    expect(refused.status).toBe(429);
    expect(refused.body.detail.period_end).toBe('2031-02-01T00:00:00.000Z');
    clockOffset = Date.UTC(2031, 1, 1, 0, 0, 5) - Date.now();
    expect((await http(url(), `/api/v2/score/address/${a}`, { key })).status).toBe(200);
    expect(await usage(key)).toMatchObject({
      used: 1,
      remaining: 1,
      period_start: '2031-02-01T00:00:00.000Z',
      period_end: '2031-03-01T00:00:00.000Z',
      by_operation: { scoreAddress: 1 },
    });
  });
});

describe('refunds of a 5xx', () => {
  it('a service that is gone (503) charges nothing', async () => {
    const { key } = await keyFor('pro');
    await reference.services[2]!.close(); // [identity, scoring, reports]
    const res = await http(url(), `/api/v2/report/address/${cast('healthy_borrower')}`, { key });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-cu-cost')).toBe('0');
    expect(await usage(key)).toMatchObject({ used: 0 });
  });
});
