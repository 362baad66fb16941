import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { FACTOR_LABELS } from '@credit/contracts/schemas/score';
import { ScoreHistoryResult } from '@credit/contracts/schemas/score-history';
import type { CastRole } from '@credit/devnet/state-file';
import { parseCastTable, type CastRow } from '@credit/model-lab/calibration/model-card';
import type { CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import type { IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { enhancedScore } from '@credit/score-model/boost';
import { startReferenceStack, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http, type TestStack } from '@credit/test-stack/test-stack';

/**
 * docs/API.md §4.1 end to end on the reference world: HTTP → gateway → NATS → scoring → (Redis, the
 * indexer's Postgres tables, the devnet's chains) and back. The cast's scores must be exactly the
 * table of docs/MODEL.md.
 */
jest.setTimeout(300_000);

const MODEL_MD = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'MODEL.md'), 'utf8');
const TABLE: CastRow[] = parseCastTable(MODEL_MD);

let reference: ReferenceStack;
let stack: TestStack;
let world: IndexedDevnet;
let counted: CountingRegistry;
let key: string;

const cast = (role: CastRole) => getAddress(world.devnet.state.cast[role]!.address);
const row = (role: CastRole) => TABLE.find((r) => r.role === role)!;
const get = (path: string) => http(stack.url, path, { key });
const withoutTimestamp = <T extends { timestamp?: string }>(body: T) => ({ ...body, timestamp: undefined });

beforeAll(async () => {
  reference = await startReferenceStack(['scoring']);
  ({ stack, world, counted, key } = reference);
});

afterAll(async () => {
  await reference?.close();
});

describe('GET /api/v2/score/address/{a} on the reference world', () => {
  it('docs/MODEL.md lists the whole cast', () => {
    // the seeded cast (the payment chain's devnet-only payer has no history to score)
    const { payer: _payer, ...seeded } = world.devnet.state.cast;
    expect(TABLE.map((r) => r.role).sort()).toEqual(Object.keys(seeded).sort());
    for (const r of TABLE) expect(r.address).toBe(cast(r.role as CastRole));
  });

  it.each(['healthy_borrower', 'liquidated', 'multichain', 'ens_holder', 'new_wallet'] as const)(
    '%s: score, decile, range and factors equal the model card',
    async (role) => {
      const expected = row(role);
      const res = await get(`/api/v2/score/address/${cast(role)}?include_factors=true`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        address: cast(role),
        score: expected.score,
        decile: expected.decile,
        range: expected.range,
        model_version: 'andromeda_1.0',
      });
      expect(Number.isNaN(Date.parse(res.body.timestamp))).toBe(false);
      expect([...res.body.factors.map((f: { label: string }) => f.label)].sort()).toEqual([...FACTOR_LABELS].sort());
      // adverse-action order: the factor that costs the score most first
      const lost = res.body.factors.map((f: { description: string }) => Number(/, ([\d.]+) score points below/.exec(f.description)?.[1]));
      expect(lost).toEqual([...lost].sort((a: number, b: number) => b - a));
      for (const factor of res.body.factors as { label: (typeof FACTOR_LABELS)[number]; rating: string; description: string }[]) {
        const card = expected.factors[factor.label]!;
        expect({ label: factor.label, rating: factor.rating, points: Number(/^(\d+) pts/.exec(factor.description)?.[1]) }).toEqual({
          label: factor.label,
          rating: card.rating,
          points: card.points,
        });
      }
    },
  );

  it('without include_factors the body is exactly docs/API.md §2.1', async () => {
    const res = await get(`/api/v2/score/address/${cast('healthy_borrower')}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['address', 'decile', 'model_version', 'range', 'score', 'timestamp']);
  });

  it("the liquidated wallet's factors name its liquidation; the new wallet is held in the low range", async () => {
    const [liquidated, fresh] = await Promise.all([
      get(`/api/v2/score/address/${cast('liquidated')}?include_factors=true`),
      get(`/api/v2/score/address/${cast('new_wallet')}`),
    ]);
    const history = (liquidated.body.factors as { label: string; description: string }[]).find((f) => f.label === 'Borrowing History')!;
    expect(history.description).toMatch(/days since the last liquidation \d+ → bin/);
    expect(fresh.body.range).toBe('low');
  });

  it('the address with no activity gets 404 with a detail', async () => {
    const res = await get(`/api/v2/score/address/${cast('empty')}`);
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(['detail']);
    expect(res.body.detail).toMatch(/activity/i);
  });

  it('an ENS name scores the same as its address, and the reply carries the address', async () => {
    const name = world.devnet.state.cast.ens_holder!.ens!;
    const [byName, byAddress] = await Promise.all([
      get(`/api/v2/score/address/${name}?include_factors=true`),
      get(`/api/v2/score/address/${cast('ens_holder')}?include_factors=true`),
    ]);
    expect(byName.status).toBe(200);
    expect(byName.body.address).toBe(cast('ens_holder'));
    expect(withoutTimestamp(byName.body)).toEqual(withoutTimestamp(byAddress.body));
  });

  it('a lower-case hex address answers with the checksummed one', async () => {
    const res = await get(`/api/v2/score/address/${cast('multichain').toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.address).toBe(cast('multichain'));
  });

  it('an invalid address or an unknown name gets 404 with a detail', async () => {
    for (const bad of ['0x1234', 'nobody-here.eth']) {
      const res = await get(`/api/v2/score/address/${bad}`);
      expect(res.status).toBe(404);
      expect(Object.keys(res.body)).toEqual(['detail']);
    }
  });
});

describe('the five-minute cache (docs/API.md §8)', () => {
  it('a cached score equals the fresh one and asks no chain anything', async () => {
    const wallet = getAddress(world.devnet.state.population[0]!.address);
    counted.reset();
    const fresh = await get(`/api/v2/score/address/${wallet}?include_factors=true`);
    expect(fresh.status).toBe(200);
    const cold = counted.counts();
    expect(Object.values(cold).every((n) => n >= 1)).toBe(true);
    counted.reset();
    const cached = await get(`/api/v2/score/address/${wallet}?include_factors=true`);
    expect(cached.body).toEqual(fresh.body);
    expect(counted.total()).toBe(0);
  });
});

describe('GET /api/v2/score/?address= (aggregated)', () => {
  it('is the mean of the valid addresses, invalid and inactive ones skipped', async () => {
    const healthy = row('healthy_borrower').score!;
    const liquidated = row('liquidated').score!;
    const res = await get(`/api/v2/score/?address=${cast('healthy_borrower')},not-an-address,${cast('liquidated')},${cast('empty')}`);
    expect(res.status).toBe(200);
    expect(res.body.address).toEqual([cast('healthy_borrower'), cast('liquidated')]);
    expect(res.body.score).toBe(Math.round((healthy + liquidated) / 2));
    expect(res.body.model_version).toBe('andromeda_1.0');
  });

  it('no valid address → 400 {error, status_code}', async () => {
    const res = await get('/api/v2/score/?address=nope,0x12');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String), status_code: 400 });
  });
});

describe('GET /api/v2/score/batch/?address=', () => {
  it('one score per valid, active address; count says how many', async () => {
    const roles = ['healthy_borrower', 'liquidated', 'multichain', 'empty'] as const;
    const res = await get(`/api/v2/score/batch/?address=${roles.map(cast).join(',')},bogus&include_factors=true`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.scores.map((s: { address: string }) => s.address)).toEqual([
      cast('healthy_borrower'),
      cast('liquidated'),
      cast('multichain'),
    ]);
    for (const s of res.body.scores) {
      const card = TABLE.find((r) => r.address === s.address)!;
      expect([s.score, s.decile, s.range]).toEqual([card.score, card.decile, card.range]);
      expect(s.factors).toHaveLength(6);
    }
  });

  it('more than 100 addresses → 400 with a detail stating the maximum', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const res = await get(`/api/v2/score/batch/?address=${many.join(',')}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/100/);
  });
});

describe('POST /api/v2/score/address/{a} (enhanced)', () => {
  it('boosts by the off-chain assets (docs/MODEL.md)', async () => {
    const base = row('liquidated').score!;
    const res = await http(stack.url, `/api/v2/score/address/${cast('liquidated')}`, {
      method: 'POST',
      key,
      body: { total_asset_usd: 50_000 },
    });
    expect(res.status).toBe(200);
    expect(res.body.score).toBe(enhancedScore(base, 50_000));
    expect(res.body.score).toBeGreaterThan(base);
    expect(res.body.address).toBe(cast('liquidated'));
  });

  it('no activity → 404 detail; a negative figure → 400', async () => {
    const empty = await http(stack.url, `/api/v2/score/address/${cast('empty')}`, { method: 'POST', key, body: { total_asset_usd: 10 } });
    expect(empty.status).toBe(404);
    expect(Object.keys(empty.body)).toEqual(['detail']);
    const negative = await http(stack.url, `/api/v2/score/address/${cast('liquidated')}`, {
      method: 'POST',
      key,
      body: { total_asset_usd: -1 },
    });
    expect(negative.status).toBe(400);
  });
});

describe('GET /api/v2/score/address/{a}/history', () => {
  const DAY_MS = 86_400_000;

  it('consecutive UTC days, oldest first, at most `days`, ending with the score now; 5 CU', async () => {
    const a = cast('healthy_borrower');
    const res = await get(`/api/v2/score/address/${a}/history?days=30`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-cu-cost')).toBe('5');
    const history = ScoreHistoryResult.parse(res.body);
    expect([history.address, history.model_version]).toEqual([a, 'andromeda_1.0']);
    expect(history.points.length).toBeGreaterThan(0);
    expect(history.points.length).toBeLessThanOrEqual(30);
    const days = history.points.map((p) => Date.parse(`${p.date}T00:00:00Z`));
    expect(days.slice(1).map((day, i) => day - days[i]!)).toEqual(days.slice(1).map(() => DAY_MS));
    // The last point is the score now: the reading GET score answers (cached with it). Its day is
    // the reading's (the chain head's time, which on the devnet is its own seeded calendar), never later than today.
    const score = (await get(`/api/v2/score/address/${a}`)).body;
    const last = history.points.at(-1)!;
    expect([last.score, last.decile, last.range]).toEqual([score.score, score.decile, score.range]);
    expect(last.date <= new Date().toISOString().slice(0, 10)).toBe(true);
    // Absent days shorten the list, never score 300 in its place; a shorter history is the longer one's tail.
    const week = ScoreHistoryResult.parse((await get(`/api/v2/score/address/${a}/history?days=7`)).body);
    expect(week.points).toEqual(history.points.filter((p) => Date.parse(`${p.date}T00:00:00Z`) > days.at(-1)! - 7 * DAY_MS));
    // 90 days when `days` is absent.
    const fallback = ScoreHistoryResult.parse((await get(`/api/v2/score/address/${a}/history`)).body);
    expect(fallback.points.length).toBeLessThanOrEqual(90);
    expect(fallback.points.slice(-history.points.length)).toEqual(history.points);
  });

  it('days outside 1..365 or not in digits → 400 {detail}, charged nothing; no activity or an invalid address → 404 {detail}', async () => {
    for (const days of ['0', '366', 'abc', '1.5', '-1']) {
      const res = await get(`/api/v2/score/address/${cast('healthy_borrower')}/history?days=${days}`);
      expect([days, res.status, Object.keys(res.body), res.headers.get('x-cu-cost')]).toEqual([days, 400, ['detail'], '0']);
    }
    for (const address of [cast('empty'), '0x123']) {
      const res = await get(`/api/v2/score/address/${address}/history`);
      expect([address, res.status, Object.keys(res.body)]).toEqual([address, 404, ['detail']]);
    }
  });
});
