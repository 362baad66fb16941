import { getAddress } from 'viem';
import { centsOf } from '@credit/test-stack/chain-truth';
import { reportWorld } from './support/report-world';

/** GET /api/v2/report/?address= end to end on the reference world: the addresses' reports summed and merged. */

jest.setTimeout(300_000);

const r = reportWorld();
const { cast, get } = r;

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
    const population = r.world.devnet.state.population.map((p) => getAddress(p.address));
    if (population.length < 202) throw new Error(`the reference world has ${population.length} population wallets, 202 needed`);
    const measured = async (addresses: readonly string[]) => {
      r.counted.reset();
      await get(`/api/v2/report/?address=${addresses.join(',')}`);
      return { counts: r.counted.counts(), methods: r.counted.methods() };
    };
    // A read no request asked for (a cache's refresh on the ENS chain) can fall into one measurement
    // on a loaded machine, so the pair is measured twice, on fresh addresses each time: a reading
    // whose round trips grow with the addresses differs in both.
    const pairs = [];
    for (const from of [0, 101]) {
      const one = await measured(population.slice(from, from + 1));
      const hundred = await measured(population.slice(from + 1, from + 101));
      pairs.push({ one, hundred });
      if (JSON.stringify(one.counts) === JSON.stringify(hundred.counts)) break;
    }
    const last = pairs.at(-1)!;
    expect({ counts: last.hundred.counts, pairs }).toMatchObject({ counts: last.one.counts });
  });
});
