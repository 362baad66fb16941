import type { Address } from 'viem';
import type { WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord } from '@credit/db/chain-activity-types';
import { hasAnyActivity, walletViewsOf, WalletView } from '../src/wallet-view';

const A = '0x1111111111111111111111111111111111111111' as Address;
const B = '0x2222222222222222222222222222222222222222' as Address;
const at = (s: number) => new Date(s * 1000);
const none = { count: 0, first: null, last: null };

function snapshot(chainId: number, timestamp: number, held: Partial<Record<Address, bigint>>): WalletSnapshot {
  const block = { number: 7n, timestamp: BigInt(timestamp) };
  const price = { status: 'ok', usdPerUnit: { value: 2n, scale: 0 } };
  return {
    chainId,
    block,
    portfolio: {
      chainId,
      chainName: `chain ${chainId}`,
      block,
      prices: [],
      addresses: [A, B].map((address) => ({
        address,
        total: undefined as never,
        complete: true,
        assets: [
          {
            asset: { symbol: 'ETH', name: 'Ether' },
            amount: held[address] ?? 0n,
            price,
            value: { cents: (held[address] ?? 0n) * 200n },
          },
        ],
      })),
    },
    lending: { chainId, block, addresses: [] },
  } as unknown as WalletSnapshot;
}

const row: AddressActivityRecord = {
  chainId: 2,
  address: A.toLowerCase() as `0x${string}`,
  firstTransaction: { hash: '0xa', blockNumber: 3n, txIndex: 0, timestamp: at(100) },
  lastTransaction: { hash: '0xb', blockNumber: 5n, txIndex: 1, timestamp: at(200) },
  transactionCount: 4,
  transferCount: 1,
  supply: { count: 1, first: at(150), last: at(150) },
  withdraw: none,
  borrow: none,
  repay: none,
  liquidation: none,
};

describe('walletViewsOf', () => {
  const views = walletViewsOf({
    addresses: [A, B],
    activity: [row],
    lendingEvents: [],
    snapshots: [snapshot(1, 1_000, { [B]: 3n }), snapshot(2, 1_200, {})],
    attestations: new Map([[A, { attestations: ['ens:a.eth', 'passport'], passportScore: 25, poapDates: ['2024-05-01'] }]]),
    names: new Map([[A, [{ name: 'a.eth', since: 50 }]]]),
    computedAt: '2026-01-01T00:00:00.000Z',
  });

  it('one view per address, every chain read in order, at the newest head, as plain JSON', () => {
    const a = views.get(A)!;
    expect(a.asOfSeconds).toBe(1_200);
    expect(a.chains.map((c) => [c.chainId, c.block, c.blockTimestamp])).toEqual([
      [1, 7, 1_000],
      [2, 7, 1_200],
    ]);
    expect(a.chains[1]!.activity).toEqual({
      firstTransaction: { timestamp: 100, blockNumber: 3 },
      lastTransaction: { timestamp: 200, blockNumber: 5 },
      transactionCount: 4,
      transferCount: 1,
      supply: { count: 1, first: 150, last: 150 },
      withdraw: none,
      borrow: none,
      repay: none,
      liquidation: none,
    });
    expect(a.chains[0]!.activity).toBeNull();
    expect(a.chains[1]!.lending).toEqual({
      borrowedCents: '0',
      repaidCents: '0',
      repaidUsdDays: 0,
      loansRepaidUsdDays: [],
      unvaluedEvents: 0,
      ownRepays: 0,
    });
    expect(a.attestations).toEqual(['ens:a.eth', 'passport']);
    expect(a.identity).toEqual({ passportScore: 25, poapDates: ['2024-05-01'], names: [{ name: 'a.eth', since: 50 }] });
    expect(views.get(B)!.attestations).toEqual([]);
    expect(views.get(B)!.identity).toEqual({ passportScore: null, poapDates: [], names: [] });
    expect(WalletView.parse(JSON.parse(JSON.stringify(a)))).toEqual(a);
    expect(views.get(B)!.chains[0]!.assets).toEqual([
      { symbol: 'ETH', name: 'Ether', amount: '3', priceStatus: 'ok', valueCents: '600', lowValueCents: '600' },
    ]);
  });

  it('a balance counts at its lowest over the last 30 days: what arrived for the reading counts for nothing', () => {
    const DAY = 86_400;
    const now = 100 * DAY;
    const flow = (amount: bigint, daysAgo: number, block: bigint) => ({
      chainId: 1,
      address: B.toLowerCase() as `0x${string}`,
      asset: 'native',
      amount,
      blockNumber: block,
      txIndex: 0,
      timestamp: now - daysAgo * DAY,
    });
    const read = (flows: ReturnType<typeof flow>[]) =>
      walletViewsOf({
        addresses: [B],
        activity: [],
        lendingEvents: [],
        balanceFlows: flows,
        snapshots: [snapshot(1, now, { [B]: 10n })],
        attestations: new Map(),
        computedAt: '2026-01-01T00:00:00.000Z',
      }).get(B)!.chains[0]!.assets[0]!.lowValueCents;
    // 10 held today, 8 of them arrived an hour ago: 2 held through the window
    expect(read([flow(8n, 1 / 24, 5n)])).toBe('400');
    // arrived 40 days ago: before the window, all 10 held through it
    expect(read([flow(8n, 40, 5n)])).toBe('2000');
    // 6 out 20 days ago, 6 back 10 days ago: the low was 4
    expect(read([flow(-6n, 20, 5n), flow(6n, 10, 6n)])).toBe('800');
    // in and out again (parked and gone): nothing held today came from it
    expect(read([flow(50n, 5, 5n), flow(-50n, 4, 6n)])).toBe('2000');
    // 30 in, 25 out: 5 of today's 10 were there before
    expect(read([flow(30n, 3, 5n), flow(-25n, 2, 6n)])).toBe('1000');
    // more arrived than is held: the low is zero
    expect(read([flow(12n, 3, 5n)])).toBe('0');
  });

  it('activity: indexed history or a valued holding; an untouched wallet has none', () => {
    expect(hasAnyActivity(views.get(A)!)).toBe(true);
    expect(hasAnyActivity(views.get(B)!)).toBe(true);
    const idle = walletViewsOf({
      addresses: [B],
      activity: [],
      lendingEvents: [],
      snapshots: [snapshot(1, 1, {})],
      attestations: new Map(),
      computedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(hasAnyActivity(idle.get(B)!)).toBe(false);
  });
});
