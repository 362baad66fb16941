import { DomainError } from '@credit/contracts/errors';
import { EMPTY_LENDING_RECORD } from '@credit/wallet/lending-record';
import type { ChainView } from '@credit/wallet/wallet-view';
import { chainFigures, mergeChainFigures, type ChainFigures } from '../src/domain/chain-figures';
import { chainBreakdown, summaryOf, transactionSpan } from '../src/domain/report-parts';

/** The report assembly on hand-made views: no chain, no database. */

function view(overrides: Partial<ChainView> = {}): ChainView {
  return {
    chainId: 1,
    chainName: 'Ethereum',
    block: 100,
    blockTimestamp: 1_700_000_000,
    activity: null,
    assets: [],
    positions: [],
    lending: EMPTY_LENDING_RECORD,
    collateralLowCents: '0',
    interactions: null,
    ...overrides,
  };
}

const asset = (symbol: string, amount: string | null, valueCents: string | null, priceStatus: 'ok' | 'stale' = 'ok') => ({
  symbol,
  name: `${symbol} token`,
  amount,
  priceStatus,
  valueCents,
  lowValueCents: valueCents,
});

const events = (count: number) => ({ count, first: null, last: null });

function activity(first: [number, number], last: [number, number], counts: { tx?: number; transfers?: number; supply?: number } = {}) {
  return {
    firstTransaction: { timestamp: first[0], blockNumber: first[1] },
    lastTransaction: { timestamp: last[0], blockNumber: last[1] },
    transactionCount: counts.tx ?? 0,
    transferCount: counts.transfers ?? 0,
    supply: events(counts.supply ?? 0),
    withdraw: events(0),
    borrow: events(0),
    repay: events(1),
    liquidation: events(0),
  };
}

const position = (collateralCents: string, debtCents: string, read = true) => ({
  pool: 'Aave',
  read,
  collateralCents,
  debtCents,
  healthFactor: debtCents === '0' ? null : { value: '1500000000000000000', scale: 18 },
  hasDebt: debtCents !== '0',
});

describe('chainFigures', () => {
  it('lists held balances only, sums them in cents, and reads the pools', () => {
    const figures = chainFigures(
      view({
        assets: [asset('ETH', '0', '0', 'stale'), asset('USDC', '10', '1001'), asset('DAI', '20', '2')],
        positions: [position('50000', '12345'), position('100', '0')],
      }),
    );
    expect(figures.balances).toEqual([
      { symbol: 'USDC', name: 'USDC token', cents: 1001n },
      { symbol: 'DAI', name: 'DAI token', cents: 2n },
    ]);
    expect(figures).toMatchObject({ balanceCount: 2, balanceCents: 1003n, collateralCents: 50100n, debtCents: 12345n, activeLoans: 1 });
  });

  it.each([
    [
      'a held asset without a usable price',
      { assets: [asset('WETH', '5', null, 'stale')] },
      /WETH price feed has no usable price \(stale\)/,
    ],
    ['a balance that could not be read', { assets: [asset('USDC', null, null)] }, /USDC balance could not be read/],
    ['a pool that could not be read', { positions: [position('0', '0', false)] }, /lending pool Aave could not be read/],
  ])('%s → 503 naming the chain, never a total that leaves it out', (_, overrides, message) => {
    let thrown: unknown;
    try {
      chainFigures(view(overrides as Partial<ChainView>));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect((thrown as DomainError).code).toBe('service_unavailable');
    expect((thrown as DomainError).message).toMatch(/^Chain 1 \(Ethereum\): /);
    expect((thrown as DomainError).message).toMatch(message);
  });
});

describe('summaryOf and chainBreakdown', () => {
  const a = chainFigures(
    view({
      assets: [asset('ETH', '1', '10'), asset('USDC', '1', '20')],
      positions: [position('100', '0')],
      activity: activity([100, 5], [200, 9], { tx: 3, transfers: 2, supply: 1 }),
    }),
  );
  const b = chainFigures(
    view({ chainId: 10, chainName: 'OP', assets: [asset('ETH', '1', '1')], activity: activity([50, 70], [300, 80], { tx: 1 }) }),
  );

  it('sums money in cents (0.1 + 0.2 is 0.3) and counts over chains', () => {
    const ten = chainFigures(view({ assets: [asset('X', '1', '10')] }));
    const twenty = chainFigures(view({ chainId: 2, assets: [asset('Y', '1', '20')] }));
    expect(summaryOf([ten, twenty], []).total_asset_usd).toBe(0.3);
    expect(summaryOf([a, b], ['ens:x.eth'])).toEqual({
      total_asset_usd: 0.31,
      total_collateral_usd: 1,
      total_debt_usd: 0,
      count_transactions: 4,
      count_transfers: 2,
      count_balances: 3,
      count_identity_attestations: 1,
      list_identity_attestations: ['ens:x.eth'],
      count_collateral_deposits: 1,
      count_active_loans: 0,
      count_liquidations: 0,
      count_repayments: 2,
    });
  });

  it('leaves the lending counts out when no chain has a lending pool', () => {
    expect(Object.keys(summaryOf([b], []))).not.toContain('count_active_loans');
  });

  it('spans the earliest first and the latest last transaction over chains', () => {
    expect(transactionSpan([a, b])).toEqual({
      first_transaction: { timestamp: 50, block_number: 70, chain_id: 10 },
      last_transaction: { timestamp: 300, block_number: 80, chain_id: 10 },
    });
    expect(transactionSpan([chainFigures(view())])).toEqual({});
  });

  it('a chains[] item carries the chain figures as USD numbers', () => {
    expect(chainBreakdown(a)).toEqual({
      chain: {
        id: 1,
        name: 'Ethereum',
        has_past_activity: true,
        current_balance_usd: 0.3,
        transaction_count: 3,
        balances: [
          { symbol: 'ETH', name: 'ETH token', usd_value: 0.1 },
          { symbol: 'USDC', name: 'USDC token', usd_value: 0.2 },
        ],
      },
    });
  });
});

describe('mergeChainFigures', () => {
  it('sums one chain over addresses: balances per asset, counts summed, earliest first and latest last', () => {
    const one: ChainFigures = chainFigures(
      view({ assets: [asset('USDC', '1', '150')], activity: activity([100, 10], [200, 20], { tx: 2 }) }),
    );
    const two: ChainFigures = chainFigures(
      view({ assets: [asset('ETH', '1', '5'), asset('USDC', '1', '50')], activity: activity([100, 8], [200, 25], { tx: 1 }) }),
    );
    const idle: ChainFigures = chainFigures(view());
    const merged = mergeChainFigures([one, two, idle]);
    expect(merged.balances).toEqual([
      { symbol: 'USDC', name: 'USDC token', cents: 200n },
      { symbol: 'ETH', name: 'ETH token', cents: 5n },
    ]);
    expect(merged).toMatchObject({ balanceCount: 3, balanceCents: 205n, transactionCount: 3, hasPastActivity: true });
    // same second: the earlier block is first, the later block is last
    expect(merged.first).toEqual({ timestamp: 100, blockNumber: 8, chainId: 1 });
    expect(merged.last).toEqual({ timestamp: 200, blockNumber: 25, chainId: 1 });
  });
});
