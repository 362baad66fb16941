import { ScoreResult, BatchScoreResult, AggregatedScoreResult } from '@credit/contracts/schemas/score';
import { ScoreHistoryResult } from '@credit/contracts/schemas/score-history';
import { AggregatedReport, Report, SummaryReport } from '@credit/contracts/schemas/report';
import { SandboxReport } from '@credit/contracts/schemas/sandbox-report';
import { ChainPortfolio, PortfolioByChain, PortfolioTotal } from '@credit/contracts/schemas/portfolio';
import { IdentityAttestations } from '@credit/contracts/schemas/identity';
import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { SUBJECTS } from '@credit/contracts/subjects';
import { http, startTestStack, type TestStack } from '@credit/test-stack/test-stack';
import { caseRequest } from './operation-cases';

const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const LOWER = VITALIK.toLowerCase();
const OTHER = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const SB = '/api/v2/sandbox';

let stack: TestStack;
let key: string;
const get = (path: string) => http(stack.url, path, { key });
const post = (path: string, body?: unknown) => http(stack.url, path, { key, method: 'POST', body });

beforeAll(async () => {
  stack = await startTestStack();
  key = (await stack.createKey()).key;
});
afterAll(() => stack.close());

describe('every operation in the sandbox', () => {
  it.each(OPERATION_IDS)('%s: its case answers 200 with a reply of its sandbox subject, free', async (id) => {
    const call = caseRequest(id, 'sandbox', VITALIK, OTHER);
    const res = await http(stack.url, call.path, { key, method: call.method, body: call.body });
    expect([id, res.status]).toEqual([id, 200]);
    const reply = SUBJECTS[HTTP_OPERATIONS[id].subjects.sandbox].reply.safeParse(res.body);
    expect([id, reply.error?.issues]).toEqual([id, undefined]);
    expect([id, res.headers.get('x-cu-cost')]).toEqual([id, '0']);
  });
});

describe('sandbox scores', () => {
  it('scores one address, checksummed, deterministic, 200', async () => {
    const a = await get(`${SB}/score/address/${LOWER}`);
    expect(a.status).toBe(200);
    const score = ScoreResult.parse(a.body);
    expect(score.address).toBe(VITALIK);
    expect(score.model_version).toBe('andromeda_1.0');
    expect(a.body).not.toHaveProperty('factors');
    const b = await get(`${SB}/score/address/${VITALIK}`);
    expect({ ...b.body, timestamp: 0 }).toEqual({ ...a.body, timestamp: 0 });
  });

  it('adds factors with include_factors=true', async () => {
    const res = await get(`${SB}/score/address/${VITALIK}?include_factors=true`);
    expect(res.status).toBe(200);
    expect(ScoreResult.parse(res.body).factors?.map((f) => f.label)).toEqual([
      'Borrowing History',
      'Wallet Composition',
      'Wallet Health',
      'Interactions',
      'Trust',
      'New Credit',
    ]);
    expect((await get(`${SB}/score/address/${VITALIK}?include_factors=maybe`)).status).toBe(400);
  });

  it('accepts a name-service name', async () => {
    const res = await get(`${SB}/score/address/vitalik.eth`);
    expect(res.status).toBe(200);
    expect(ScoreResult.parse(res.body).address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('answers 404 detail for an invalid single address', async () => {
    for (const bad of ['0x123', 'not-an-address', '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046']) {
      const res = await get(`${SB}/score/address/${bad}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.any(String) });
    }
  });

  it('aggregates the mean of valid addresses, skipping invalid ones', async () => {
    const one = ScoreResult.parse((await get(`${SB}/score/address/${VITALIK}`)).body);
    const two = ScoreResult.parse((await get(`${SB}/score/address/${OTHER}`)).body);
    const res = await get(`${SB}/score/?address=${VITALIK},bogus,${OTHER}`);
    expect(res.status).toBe(200);
    const agg = AggregatedScoreResult.parse(res.body);
    expect(agg.address).toEqual([VITALIK, OTHER]);
    expect(agg.score).toBe(Math.round((one.score + two.score) / 2));
  });

  it('answers 400 {error, status_code} when no address is valid', async () => {
    for (const query of ['?address=bogus,0x12', '?address=', '']) {
      const res = await get(`${SB}/score/${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.any(String), status_code: 400 });
    }
  });

  it('scores a batch, skipping invalid addresses', async () => {
    const res = await get(`${SB}/score/batch/?address=${VITALIK},nope,${OTHER}`);
    expect(res.status).toBe(200);
    const batch = BatchScoreResult.parse(res.body);
    expect(batch.count).toBe(2);
    expect(batch.scores.map((s) => s.address)).toEqual([VITALIK, OTHER]);
  });

  it('refuses a batch of more than 100 with 400 detail', async () => {
    const list = Array.from({ length: 101 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`).join(',');
    const res = await get(`${SB}/score/batch/?address=${list}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.stringContaining('100') });
    const ok = await get(`${SB}/score/batch/?address=${list.split(',').slice(0, 100).join(',')}`);
    expect(ok.status).toBe(200);
    expect(ok.body.count).toBe(100);
  });

  it('boosts the enhanced score and refuses negative assets', async () => {
    const base = ScoreResult.parse((await get(`${SB}/score/address/${VITALIK}`)).body).score;
    const res = await post(`${SB}/score/address/${VITALIK}`, { total_asset_usd: 50_000 });
    expect(res.status).toBe(200);
    expect(ScoreResult.parse(res.body).score).toBe(Math.min(1000, base + Math.round(0.15 * (1000 - base))));
    const neg = await post(`${SB}/score/address/${VITALIK}`, { total_asset_usd: -1 });
    expect(neg.status).toBe(400);
    expect(neg.body).toEqual({ error: expect.any(String) });
    const none = await post(`${SB}/score/address/${VITALIK}`);
    expect(none.status).toBe(200);
    expect(none.body.score).toBe(base);
  });
});

describe('sandbox score history', () => {
  const utcDate = (time: number) => new Date(time).toISOString().slice(0, 10);

  it('answers 90 consecutive UTC days by default, oldest first, ending today at the sandbox score', async () => {
    const before = Date.now();
    const res = await get(`${SB}/score/address/${LOWER}/history`);
    const after = Date.now();
    expect(res.status).toBe(200);
    const history = ScoreHistoryResult.parse(res.body);
    expect(history.address).toBe(VITALIK);
    expect(history.points).toHaveLength(90);
    const last = history.points.at(-1)!;
    expect([utcDate(before), utcDate(after)]).toContain(last.date);
    const dates = history.points.map((p) => Date.parse(`${p.date}T00:00:00Z`));
    expect(dates.slice(1).every((day, i) => day - dates[i]! === 86_400_000)).toBe(true);
    const score = ScoreResult.parse((await get(`${SB}/score/address/${VITALIK}`)).body);
    expect([last.score, last.decile, last.range]).toEqual([score.score, score.decile, score.range]);
    // A shorter history is the tail of the longer one.
    const week = ScoreHistoryResult.parse((await get(`${SB}/score/address/${VITALIK}/history?days=7`)).body);
    if (week.points.at(-1)!.date === last.date) expect(week.points).toEqual(history.points.slice(-7));
  });

  it('refuses days outside 1..365 or not in digits with 400 {detail}; an invalid address is 404 {detail}', async () => {
    for (const days of ['0', '366', 'abc', '1.5', '-1']) {
      const res = await get(`${SB}/score/address/${VITALIK}/history?days=${days}`);
      expect([days, res.status, res.body]).toEqual([days, 400, { detail: expect.stringContaining('days') }]);
    }
    expect((await get(`${SB}/score/address/${VITALIK}/history?days=365`)).status).toBe(200);
    const bad = await get(`${SB}/score/address/0x123/history`);
    expect([bad.status, bad.body]).toEqual([404, { detail: expect.any(String) }]);
  });
});

describe('sandbox reports', () => {
  it('GET report is the flat sandbox report of docs/API.md §2.8', async () => {
    const res = await get(`${SB}/report/address/${VITALIK}`);
    expect(res.status).toBe(200);
    const report = SandboxReport.parse(res.body);
    expect(report.sandbox).toBe(true);
    expect(report.address).toBe(VITALIK);
    const again = await get(`${SB}/report/address/${VITALIK}`);
    expect({ ...again.body, timestamp: 0 }).toEqual({ ...res.body, timestamp: 0 });
  });

  it('POST report merges off-chain figures, echoes the source, chains empty', async () => {
    const summary = SummaryReport.parse((await get(`${SB}/report/address/${VITALIK}/summary`)).body).report.summary;
    const res = await post(`${SB}/report/address/${VITALIK}`, {
      name: 'bank',
      total_asset_usd: 1000,
      count_transactions: 5,
    });
    expect(res.status).toBe(200);
    const report = Report.parse(res.body).report;
    expect(report.chains).toEqual([]);
    expect(report.additional).toEqual({ source: { name: 'bank', data: { total_asset_usd: 1000, count_transactions: 5 } } });
    expect(report.summary.total_asset_usd).toBeCloseTo(summary.total_asset_usd + 1000, 2);
    expect(report.summary.count_transactions).toBe(summary.count_transactions + 5);
  });

  it('POST report without name → 400 error; negative → 400; bad JSON → 400', async () => {
    const missing = await post(`${SB}/report/address/${VITALIK}`, { total_asset_usd: 5 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: expect.stringMatching(/name field/i) });
    const empty = await post(`${SB}/report/address/${VITALIK}`);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: expect.stringMatching(/name field/i) });
    const negative = await post(`${SB}/report/address/${VITALIK}`, { name: 'x', total_debt_usd: -3 });
    expect(negative.status).toBe(400);
    expect(negative.body).toEqual({ error: expect.any(String) });
    const fractional = await post(`${SB}/report/address/${VITALIK}`, { name: 'x', count_transfers: 1.5 });
    expect(fractional.status).toBe(400);
    const badJson = await http(stack.url, `${SB}/report/address/${VITALIK}`, {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      rawBody: '{"name": ',
    });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toEqual({ error: expect.any(String) });
  });

  it('aggregates reports, skipping invalid addresses; none valid → 400 {error, status_code}', async () => {
    const res = await get(`${SB}/report/?address=${VITALIK},zzz,${OTHER}`);
    expect(res.status).toBe(200);
    const report = AggregatedReport.parse(res.body).report;
    expect(report.address).toEqual([VITALIK, OTHER]);
    const a = SummaryReport.parse((await get(`${SB}/report/address/${VITALIK}/summary`)).body).report;
    const b = SummaryReport.parse((await get(`${SB}/report/address/${OTHER}/summary`)).body).report;
    expect(report.summary.count_transactions).toBe(a.summary.count_transactions + b.summary.count_transactions);
    const none = await get(`${SB}/report/?address=zzz`);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: expect.any(String), status_code: 400 });
  });

  it('summary uses ISO timestamps and has no chains', async () => {
    const res = await get(`${SB}/report/address/${VITALIK}/summary`);
    expect(res.status).toBe(200);
    const report = SummaryReport.parse(res.body).report;
    expect(typeof report.first_transaction?.timestamp).toBe('string');
    expect(typeof report.last_transaction?.timestamp).toBe('string');
    expect(res.body.report).not.toHaveProperty('chains');
  });

  it('chain report for one chain; bad chain ids → 400', async () => {
    const res = await get(`${SB}/report/address/${VITALIK}/chain/1`);
    expect(res.status).toBe(200);
    const report = Report.parse(res.body).report;
    expect(report.chains.every((c) => c.chain.id === 1)).toBe(true);
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const r = await get(`${SB}/report/address/${VITALIK}/chain/${bad}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ detail: expect.any(String) });
    }
    const unknown = await get(`${SB}/report/address/${VITALIK}/chain/999999`);
    expect(unknown.status).toBe(400);
  });

  it('portfolio values: total/usd, total/usd/aggregate, chain/{id}/total/usd', async () => {
    const byChain = PortfolioByChain.parse((await get(`${SB}/report/address/${VITALIK}/total/usd`)).body);
    const total = PortfolioTotal.parse((await get(`${SB}/report/address/${VITALIK}/total/usd/aggregate`)).body);
    expect(total.total_asset_usd).toBe(byChain.total_asset_usd);
    const cents = byChain.chains.reduce((sum, c) => sum + Math.round(c.total_asset_usd * 100), 0);
    expect(cents).toBe(Math.round(byChain.total_asset_usd * 100));
    const res = await get(`${SB}/report/address/${VITALIK}/chain/1/total/usd`);
    expect(res.status).toBe(200);
    const one = ChainPortfolio.parse(res.body);
    expect(one.chain_id).toBe(1);
    expect(one.chain_name).toBe('Ethereum');
  });

  it('every address route answers 404 detail for an invalid address', async () => {
    for (const path of [
      '/report/address/nope',
      '/report/address/nope/summary',
      '/report/address/nope/chain/1',
      '/report/address/nope/total/usd',
      '/report/address/nope/total/usd/aggregate',
      '/report/address/nope/chain/1/total/usd',
      '/identity/address/nope/attestations',
    ]) {
      const res = await get(`${SB}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).toEqual({ detail: expect.any(String) });
    }
  });
});

describe('sandbox identity', () => {
  it('answers docs/API.md §2.6 attestations', async () => {
    const res = await get(`${SB}/identity/address/${VITALIK}/attestations`);
    expect(res.status).toBe(200);
    const identity = IdentityAttestations.parse(res.body);
    expect(identity.address).toBe(VITALIK);
    expect(identity.cached).toBe(false);
  });
});
