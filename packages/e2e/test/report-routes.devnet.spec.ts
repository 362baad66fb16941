import { Redis } from 'ioredis';
import { attestationStrings } from '@credit/contracts/attestations';
import { getAddress, type Address } from 'viem';
import type { CastRole } from '@credit/devnet/state-file';
import type { CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import type { IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { centsOf, chainTruth, indexTruth, type ChainTruth, type IndexTruth } from '@credit/test-stack/chain-truth';
import { REDIS_URL, startReferenceStack, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http, type TestStack } from '@credit/test-stack/test-stack';

/**
 * docs/API.md §4.2 end to end on the reference world: HTTP → gateway → NATS → reports → (Redis, the
 * indexer's Postgres tables, the devnet's chains) and back. Every USD figure is checked against a
 * computation from the chain made here with plain viem calls, every count against the indexer's
 * raw rows, and the endpoints against each other.
 */
jest.setTimeout(300_000);

const ACTIVE_ROLES = ['healthy_borrower', 'liquidated', 'multichain', 'ens_holder', 'new_wallet'] as const;

let reference: ReferenceStack;
let stack: TestStack;
let world: IndexedDevnet;
let counted: CountingRegistry;
let key: string;

const cast = (role: CastRole): Address => getAddress(world.devnet.state.cast[role]!.address);
const get = (path: string) => http(stack.url, path, { key });
const post = (path: string, body: unknown) => http(stack.url, path, { key, method: 'POST', body });
const sum = (values: Iterable<bigint>) => [...values].reduce((a, b) => a + b, 0n);

interface Truth {
  chains: ChainTruth[];
  index: Map<number, IndexTruth>;
}

async function truthOf(address: Address): Promise<Truth> {
  const chains = await Promise.all(world.registry.map((c) => chainTruth(c, address)));
  const index = new Map(
    await Promise.all(world.registry.map(async (c) => [c.id, await indexTruth(stack.databaseUrl, c.id, address)] as const)),
  );
  return { chains, index };
}

beforeAll(async () => {
  reference = await startReferenceStack(['reports', 'scoring', 'identity']);
  ({ stack, world, counted, key } = reference);
});

afterAll(async () => {
  await reference?.close();
});

describe('GET /api/v2/report/address/{a}: every figure from the chain and the index', () => {
  it.each(ACTIVE_ROLES)('%s', async (role) => {
    const address = cast(role);
    const truth = await truthOf(address);
    const identity = await get(`/api/v2/identity/address/${address}/attestations`);
    const attestations = identity.status === 200 ? attestationStrings(identity.body) : [];
    const res = await get(`/api/v2/report/address/${address}`);
    expect(res.status).toBe(200);
    const { report } = res.body;
    expect(report.address).toBe(address);
    expect(Number.isNaN(Date.parse(report.timestamp))).toBe(false);

    // one chains[] item per configured chain, in registry order, each equal to the chain's own figures
    expect(report.chains.map((c: { chain: { id: number } }) => c.chain.id)).toEqual(world.registry.map((c) => c.id));
    for (const [i, item] of (report.chains as { chain: Record<string, unknown> }[]).entries()) {
      const chain = truth.chains[i]!;
      const index = truth.index.get(chain.chainId)!;
      const balances = item.chain.balances as { symbol: string; name: string; usd_value: number }[];
      expect(item.chain.name).toBe(chain.name);
      expect(new Map(balances.map((b) => [b.symbol, centsOf(b.usd_value)]))).toEqual(chain.balances);
      expect(centsOf(item.chain.current_balance_usd as number)).toBe(sum(chain.balances.values()));
      expect(item.chain.transaction_count).toBe(index.transactions);
      expect(item.chain.has_past_activity).toBe(index.first !== null);
    }

    const indexes = [...truth.index.values()];
    const total = (pick: (i: IndexTruth) => number) => indexes.reduce((n, i) => n + pick(i), 0);
    expect(report.summary).toEqual({
      total_asset_usd: Number(sum(truth.chains.flatMap((c) => [...c.balances.values()]))) / 100,
      total_collateral_usd: Number(sum(truth.chains.map((c) => c.collateralCents))) / 100,
      total_debt_usd: Number(sum(truth.chains.map((c) => c.debtCents))) / 100,
      count_transactions: total((i) => i.transactions),
      count_transfers: total((i) => i.transfers),
      count_balances: truth.chains.reduce((n, c) => n + c.balances.size, 0),
      count_identity_attestations: attestations.length,
      list_identity_attestations: attestations,
      count_collateral_deposits: total((i) => i.supplies),
      count_active_loans: truth.chains.reduce((n, c) => n + c.activeLoans, 0),
      count_liquidations: total((i) => i.liquidations),
      count_repayments: total((i) => i.repays),
    });

    // first and last transaction: the earliest and latest over the chains, from the raw rows
    const edges = world.registry.flatMap((c) => {
      const i = truth.index.get(c.id)!;
      return i.first && i.last ? [{ chainId: c.id, first: i.first, last: i.last }] : [];
    });
    const first = edges.reduce((best, e) => (e.first[0] < best.first[0] ? e : best));
    const last = edges.reduce((best, e) => (e.last[0] > best.last[0] ? e : best));
    expect(report.first_transaction).toEqual({ timestamp: first.first[0], block_number: first.first[1], chain_id: first.chainId });
    expect(report.last_transaction).toEqual({ timestamp: last.last[0], block_number: last.last[1], chain_id: last.chainId });
  });

  it('the USD figures agree to the cent across the full report, its chains, total/usd, total/usd/aggregate and the chain routes', async () => {
    for (const role of ACTIVE_ROLES) {
      const address = cast(role);
      const [full, byChain, aggregate] = await Promise.all([
        get(`/api/v2/report/address/${address}`),
        get(`/api/v2/report/address/${address}/total/usd`),
        get(`/api/v2/report/address/${address}/total/usd/aggregate`),
      ]);
      const total = centsOf(full.body.report.summary.total_asset_usd);
      expect(
        sum(full.body.report.chains.map((c: { chain: { current_balance_usd: number } }) => centsOf(c.chain.current_balance_usd))),
      ).toBe(total);
      expect(centsOf(byChain.body.total_asset_usd)).toBe(total);
      expect(sum(byChain.body.chains.map((c: { total_asset_usd: number }) => centsOf(c.total_asset_usd)))).toBe(total);
      expect(aggregate.body).toEqual({ address, total_asset_usd: byChain.body.total_asset_usd, timestamp: byChain.body.timestamp });
      for (const item of full.body.report.chains as { chain: { id: number; name: string; current_balance_usd: number } }[]) {
        const [one, chainReport] = await Promise.all([
          get(`/api/v2/report/address/${address}/chain/${item.chain.id}/total/usd`),
          get(`/api/v2/report/address/${address}/chain/${item.chain.id}`),
        ]);
        expect(one.body).toEqual({
          address,
          chain_id: item.chain.id,
          chain_name: item.chain.name,
          total_asset_usd: item.chain.current_balance_usd,
          timestamp: full.body.report.timestamp,
        });
        expect(chainReport.body.report.chains).toEqual([item]);
        expect(chainReport.body.report.summary.total_asset_usd).toBe(item.chain.current_balance_usd);
      }
    }
  });

  it('the summary route is the full report without chains; a score and a report of one wallet come from one reading', async () => {
    const address = cast('healthy_borrower');
    const [full, summary, score] = await Promise.all([
      get(`/api/v2/report/address/${address}`),
      get(`/api/v2/report/address/${address}/summary`),
      get(`/api/v2/score/address/${address}`),
    ]);
    const { chains: _chains, ...rest } = full.body.report;
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({ report: rest });
    // the shared 5-minute cache: the score was made from the very reading the report shows
    expect(score.body.timestamp).toBe(full.body.report.timestamp);
  });

  it('a chain report of a chain the wallet never used: zeros, no past activity, no transactions', async () => {
    const address = cast('healthy_borrower');
    const truth = await truthOf(address);
    const unused = world.registry.find(
      (c) => truth.index.get(c.id)!.first === null && !truth.chains.find((t) => t.chainId === c.id)!.balances.size,
    );
    if (!unused) throw new Error('the reference world should leave the healthy borrower off one chain');
    const res = await get(`/api/v2/report/address/${address}/chain/${unused.id}`);
    expect(res.status).toBe(200);
    expect(res.body.report.first_transaction).toBeUndefined();
    expect(res.body.report.chains).toEqual([
      { chain: { id: unused.id, name: unused.name, has_past_activity: false, current_balance_usd: 0, transaction_count: 0, balances: [] } },
    ]);
  });

  it('an ENS name reports the same as its address; a lower-case address answers checksummed', async () => {
    const name = world.devnet.state.cast.ens_holder!.ens!;
    const [byName, byAddress, lower] = await Promise.all([
      get(`/api/v2/report/address/${name}`),
      get(`/api/v2/report/address/${cast('ens_holder')}`),
      get(`/api/v2/report/address/${cast('ens_holder').toLowerCase()}`),
    ]);
    expect(byName.status).toBe(200);
    expect(byName.body).toEqual(byAddress.body);
    expect(lower.body).toEqual(byAddress.body);
  });

  it('a cached report costs no JSON-RPC request', async () => {
    const address = cast('multichain');
    await get(`/api/v2/report/address/${address}`);
    counted.reset();
    const again = await get(`/api/v2/report/address/${address}/total/usd`);
    expect(again.status).toBe(200);
    expect(counted.total()).toBe(0);
  });
});

describe('the OpenAPI document', () => {
  it('describes each production report response field by field, as the replies are', async () => {
    const doc = (await http(stack.url, '/openapi.json')).body;
    const ok = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content['application/json'].schema;
    const full = ok('/api/v2/report/address/{address}').properties.report;
    expect(full.required).toEqual(expect.arrayContaining(['address', 'timestamp', 'summary', 'chains']));
    expect(full.properties.summary.required).toEqual(
      expect.arrayContaining([
        'total_asset_usd',
        'total_collateral_usd',
        'total_debt_usd',
        'count_transactions',
        'count_transfers',
        'count_balances',
        'count_identity_attestations',
        'list_identity_attestations',
      ]),
    );
    expect(full.properties.first_transaction.properties.timestamp.type).toBe('integer');
    expect(full.properties.chains.items.properties.chain.required).toEqual(
      expect.arrayContaining(['id', 'name', 'has_past_activity', 'current_balance_usd', 'transaction_count', 'balances']),
    );
    const enhanced = ok('/api/v2/report/address/{address}', 'post').properties.report;
    expect(enhanced.required).toContain('additional');
    expect(enhanced.properties.chains.maxItems).toBe(0);
    expect(ok('/api/v2/report/').properties.report.properties.address.type).toBe('array');
    expect(ok('/api/v2/report/address/{address}/summary').properties.report.properties.chains).toBeUndefined();
    expect(ok('/api/v2/report/address/{address}/total/usd').required).toEqual(['address', 'total_asset_usd', 'timestamp', 'chains']);
  });
});

describe('the bad inputs', () => {
  it.each([
    ['/api/v2/report/address/{empty}', 'the address without activity'],
    ['/api/v2/report/address/{empty}/summary', 'its summary'],
    ['/api/v2/report/address/{empty}/total/usd', 'its total'],
    ['/api/v2/report/address/0x1234', 'an invalid address'],
    ['/api/v2/report/address/nobody-here.eth/chain/1', 'an unknown name'],
  ])('%s (%s) → 404 with a detail', async (path) => {
    const res = await get(path.replace('{empty}', cast('empty')));
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(['detail']);
  });

  it('an unconfigured chain id → 404 naming it; a chain id that is not a positive integer → 400', async () => {
    for (const path of ['chain/999', 'chain/999/total/usd']) {
      const res = await get(`/api/v2/report/address/${cast('multichain')}/${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.stringContaining('Chain 999') });
    }
    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const res = await get(`/api/v2/report/address/${cast('multichain')}/chain/${bad}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['detail']);
    }
  });
});

describe('POST /api/v2/report/address/{a}: the enhanced report', () => {
  const address = () => cast('healthy_borrower');

  it('sums the on-chain and the supplied figures, echoes the source, has no chains', async () => {
    const full = (await get(`/api/v2/report/address/${address()}`)).body.report;
    const supplied = { total_asset_usd: 1000.1, total_collateral_usd: 0.2, total_debt_usd: 250, count_transactions: 7, count_transfers: 3 };
    const res = await post(`/api/v2/report/address/${address()}`, { name: 'bank', ...supplied });
    expect(res.status).toBe(200);
    const { report } = res.body;
    expect(report.additional).toEqual({ source: { name: 'bank', data: supplied } });
    expect(report.chains).toEqual([]);
    expect(centsOf(report.summary.total_asset_usd)).toBe(centsOf(full.summary.total_asset_usd) + 100_010n);
    expect(centsOf(report.summary.total_collateral_usd)).toBe(centsOf(full.summary.total_collateral_usd) + 20n);
    expect(centsOf(report.summary.total_debt_usd)).toBe(centsOf(full.summary.total_debt_usd) + 25_000n);
    expect(report.summary.count_transactions).toBe(full.summary.count_transactions + 7);
    expect(report.summary.count_transfers).toBe(full.summary.count_transfers + 3);
    expect(report.first_transaction).toEqual(full.first_transaction);
  });

  it('echoes only the figures supplied', async () => {
    const res = await post(`/api/v2/report/address/${address()}`, { name: 'bank', count_transfers: 2 });
    expect(res.status).toBe(200);
    expect(res.body.report.additional).toEqual({ source: { name: 'bank', data: { count_transfers: 2 } } });
  });

  it('is never cached: every request reads the chains again', async () => {
    await post(`/api/v2/report/address/${address()}`, { name: 'bank' });
    counted.reset();
    const again = await post(`/api/v2/report/address/${address()}`, { name: 'bank' });
    expect(again.status).toBe(200);
    expect(counted.total()).toBeGreaterThan(0);
  });

  it.each([
    [{}, /name/],
    [{ name: '' }, /name/],
    [{ name: 'bank', total_asset_usd: -1 }, /./],
    [{ name: 'bank', count_transactions: 1.5 }, /./],
    [{ name: 'bank', total_debt_usd: 'ten' }, /./],
  ])('%j → 400 with an error text', async (body, message) => {
    const res = await post(`/api/v2/report/address/${address()}`, body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toMatch(message);
  });

  it('an address without activity → 404', async () => {
    const res = await post(`/api/v2/report/address/${cast('empty')}`, { name: 'bank' });
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(['detail']);
  });
});

describe('GET /api/v2/report/?address=: the aggregated report', () => {
  it('sums the reports of the addresses, merges chains, spans first to last; skips invalid, inactive and repeated entries', async () => {
    const roles = ['healthy_borrower', 'multichain', 'liquidated'] as const;
    const singles = await Promise.all(roles.map(async (r) => (await get(`/api/v2/report/address/${cast(r)}`)).body.report));
    const list = [
      cast('healthy_borrower'),
      '0x1234',
      cast('multichain'),
      cast('empty'),
      cast('multichain').toLowerCase(),
      cast('liquidated'),
    ];
    const res = await get(`/api/v2/report/?address=${list.join(',')}`);
    expect(res.status).toBe(200);
    const { report } = res.body;
    expect(report.address).toEqual(roles.map(cast));
    const summed = (field: string) => singles.reduce((n, s) => n + centsOf(s.summary[field]), 0n);
    const counted = (field: string) => singles.reduce((n, s) => n + s.summary[field], 0);
    for (const field of ['total_asset_usd', 'total_collateral_usd', 'total_debt_usd'])
      expect(centsOf(report.summary[field])).toBe(summed(field));
    for (const field of [
      'count_transactions',
      'count_transfers',
      'count_balances',
      'count_collateral_deposits',
      'count_active_loans',
      'count_liquidations',
      'count_repayments',
    ]) {
      expect(report.summary[field]).toBe(counted(field));
    }
    expect(report.summary.list_identity_attestations).toEqual([...new Set(singles.flatMap((r) => r.summary.list_identity_attestations))]);
    expect(report.summary.count_identity_attestations).toBe(report.summary.list_identity_attestations.length);
    const firsts = singles.map((s) => s.first_transaction);
    const lasts = singles.map((s) => s.last_transaction);
    expect(report.first_transaction.timestamp).toBe(Math.min(...firsts.map((t) => t.timestamp)));
    expect(report.last_transaction.timestamp).toBe(Math.max(...lasts.map((t) => t.timestamp)));
    // chains merged per chain: each chain's balance is the sum of the addresses' on it
    for (const [i, item] of (
      report.chains as { chain: { id: number; current_balance_usd: number; transaction_count: number } }[]
    ).entries()) {
      expect(centsOf(item.chain.current_balance_usd)).toBe(
        singles.reduce((n, s) => n + centsOf(s.chains[i].chain.current_balance_usd), 0n),
      );
      expect(item.chain.transaction_count).toBe(singles.reduce((n, s) => n + s.chains[i].chain.transaction_count, 0));
    }
  });

  it('no valid address → 400 {error, status_code}; only inactive ones → 404; more than 100 → 400 detail', async () => {
    const none = await get('/api/v2/report/?address=0x1234,nobody-here.eth');
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: expect.any(String), status_code: 400 });
    const inactive = await get(`/api/v2/report/?address=${cast('empty')}`);
    expect(inactive.status).toBe(404);
    const many = Array.from({ length: 101 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
    const tooMany = await get(`/api/v2/report/?address=${many.join(',')}`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toMatch(/100/);
  });

  it('reads the misses of 100 addresses in as many JSON-RPC round trips per chain as one address', async () => {
    const population = world.devnet.state.population.map((p) => getAddress(p.address));
    const fresh = (n: number, from: number) => population.slice(from, from + n);
    if (population.length < 111) throw new Error(`the reference world has ${population.length} population wallets, 111 needed`);
    counted.reset();
    await get(`/api/v2/report/?address=${fresh(1, 0).join(',')}`);
    const one = counted.counts();
    counted.reset();
    await get(`/api/v2/report/?address=${fresh(100, 1).join(',')}`);
    expect(counted.counts()).toEqual(one);
  });
});

describe('the identity service gone', () => {
  it('→ 503 naming it for an uncached wallet, nothing cached; a cached reading (attestations read in full) still answers', async () => {
    const cachedBody = (await get(`/api/v2/report/address/${cast('healthy_borrower')}`)).body;
    await reference.identity.close();
    const uncached = getAddress(world.devnet.state.population[260]!.address);
    const res = await get(`/api/v2/report/address/${uncached}`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.stringContaining('identity service') });
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.exists(`${stack.prefix}:wallet:v2:${uncached}`)).toBe(0);
    } finally {
      redis.disconnect();
    }
    expect((await get(`/api/v2/report/address/${cast('healthy_borrower')}`)).body).toEqual(cachedBody);
  });
});

// After identity has gone: a chain that fails is named first all the same (the reading's fixed order).
describe('a chain that stops answering', () => {
  it('→ 503 naming the chain for an uncached wallet, nothing cached; the cached ones still answer', async () => {
    const cachedBody = (await get(`/api/v2/report/address/${cast('multichain')}`)).body;
    const uncached = getAddress(world.devnet.state.population[250]!.address);
    const down = world.registry[world.registry.length - 1]!;
    await counted.proxies.get(down.id)!.close();
    for (const res of [
      await get(`/api/v2/report/address/${uncached}`),
      await post(`/api/v2/report/address/${cast('multichain')}`, { name: 'bank' }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: expect.stringContaining(`chain ${down.id} (${down.name})`) });
    }
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.exists(`${stack.prefix}:wallet:v2:${uncached}`)).toBe(0);
    } finally {
      redis.disconnect();
    }
    const cached = await get(`/api/v2/report/address/${cast('multichain')}`);
    expect(cached.body).toEqual(cachedBody);
  });
});
