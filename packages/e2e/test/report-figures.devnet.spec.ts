import { attestationStrings } from '@credit/contracts/attestations';
import type { Address } from 'viem';
import { centsOf, chainTruth, indexTruth, type ChainTruth, type IndexTruth } from '@credit/test-stack/chain-truth';
import { http } from '@credit/test-stack/test-stack';
import { reportWorld, sum } from './support/report-world';

/**
 * docs/API.md §4.2 end to end on the reference world: HTTP → gateway → NATS → reports → (Redis, the
 * indexer's Postgres tables, the devnet's chains) and back. Every USD figure of the address's
 * reports is checked against a computation from the chain made here with plain viem calls, every
 * count against the indexer's raw rows, and the endpoints against each other; the OpenAPI document
 * describes them as they are.
 */

jest.setTimeout(300_000);

const r = reportWorld();
const { cast, get } = r;

const ACTIVE_ROLES = ['healthy_borrower', 'liquidated', 'multichain', 'ens_holder', 'new_wallet'] as const;

interface Truth {
  chains: ChainTruth[];
  index: Map<number, IndexTruth>;
}

async function truthOf(address: Address): Promise<Truth> {
  const chains = await Promise.all(r.world.registry.map((c) => chainTruth(c, address)));
  const index = new Map(
    await Promise.all(r.world.registry.map(async (c) => [c.id, await indexTruth(r.stack.databaseUrl, c.id, address)] as const)),
  );
  return { chains, index };
}

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
    expect(report.chains.map((c: { chain: { id: number } }) => c.chain.id)).toEqual(r.world.registry.map((c) => c.id));
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
    const edges = r.world.registry.flatMap((c) => {
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
    const unused = r.world.registry.find(
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
    const name = r.world.devnet.state.cast.ens_holder!.ens!;
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
    r.counted.reset();
    const again = await get(`/api/v2/report/address/${address}/total/usd`);
    expect(again.status).toBe(200);
    expect(r.counted.total()).toBe(0);
  });
});

describe('the OpenAPI document', () => {
  it('describes each production report response field by field, as the replies are', async () => {
    const doc = (await http(r.stack.url, '/openapi.json')).body;
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
