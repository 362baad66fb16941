import { centsOf } from '@credit/test-stack/chain-truth';
import { reportWorld } from './support/report-world';

/** POST /api/v2/report/address/{a} end to end on the reference world: the on-chain report plus the figures supplied. */

jest.setTimeout(300_000);

const r = reportWorld();
const { cast, get, post } = r;

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
    r.counted.reset();
    const again = await post(`/api/v2/report/address/${address()}`, { name: 'bank' });
    expect(again.status).toBe(200);
    expect(r.counted.total()).toBeGreaterThan(0);
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
