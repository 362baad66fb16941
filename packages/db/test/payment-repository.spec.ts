import { closePrismaClient, createPrismaClient, type Db } from '../src/prisma-client';
import { PaymentRepository, type NewPayment } from '../src/payment-repository';
import { useMigratedDatabase } from './migrated-database';

jest.setTimeout(60_000);

let serial = 0;
/** A payment as the payments service reserves it; each call its own id and nonce. */
function newPayment(over: Partial<NewPayment> = {}): NewPayment {
  serial += 1;
  return {
    id: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    network: 'eip155:84532',
    x402Version: 1,
    payer: '0xAbCdEf0000000000000000000000000000000001',
    payTo: '0x00000000000000000000000000000000000000f0',
    asset: '0x00000000000000000000000000000000000000a5',
    // above 2^64 and above 10^21 (where a Decimal's toString turns exponential)
    amount: '123456789012345678901234567890',
    nonce: `0x${'AB'.repeat(31)}${String(serial).padStart(2, '0')}`,
    validBefore: 4_102_444_800,
    requestId: `req-${serial}`,
    operation: 'scoreAddress',
    cu: 1,
    payload: { x402Version: 1, payload: { signature: '0x01' }, requirements: { extra: { name: 'USDC' } }, list: [1, 2] },
    deadline: new Date('2026-11-28T00:00:10.000Z'),
    ...over,
  };
}

describe('PaymentRepository', () => {
  const database = useMigratedDatabase(() => undefined);
  let db: Db;
  let ledger: PaymentRepository;

  beforeAll(() => {
    db = createPrismaClient(database.url);
    ledger = new PaymentRepository(db);
  });
  afterAll(() => closePrismaClient(db));

  it('reserves a payment once per (network, payer, nonce), and reads it back as it was given', async () => {
    const p = newPayment();
    expect(await ledger.reserve(p)).toBe('reserved');
    // the same authorization again, under a new id and in another case: a duplicate, nothing stored
    expect(
      await ledger.reserve({
        ...p,
        id: newPayment().id,
        payer: p.payer.toUpperCase().replace('0X', '0x'),
        nonce: p.nonce.toUpperCase().replace('0X', '0x'),
      }),
    ).toBe('duplicate');
    const row = await ledger.find(p.id);
    expect(row).toMatchObject({
      ...p,
      payer: p.payer.toLowerCase(),
      nonce: p.nonce.toLowerCase(),
      status: 'reserved',
      transaction: null,
      error: null,
    });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(await ledger.findByNonce(p.network, p.payer.toUpperCase().replace('0X', '0x'), p.nonce)).toEqual(row);
    expect(await ledger.findByNonce('eip155:1', p.payer, p.nonce)).toBeNull();
    expect(await ledger.find('no-such-id')).toBeNull();
  });

  it('moves reserved → unserved → settled once, answering the row as moved', async () => {
    const p = newPayment();
    await ledger.reserve(p);
    const paid = await ledger.markPaid(p.id, '0xt1');
    expect(paid).toMatchObject({ id: p.id, status: 'unserved', transaction: '0xt1', error: null });
    // the same transaction again: no change, the row; another transaction: null
    expect(await ledger.markPaid(p.id, '0xt1')).toMatchObject({ status: 'unserved', transaction: '0xt1' });
    expect(await ledger.markPaid(p.id, '0xt2')).toBeNull();
    expect(await ledger.markFailed(p.id, 'too late')).toBeNull();
    const delivered = await ledger.markDelivered(p.id);
    expect(delivered).toMatchObject({ status: 'settled', transaction: '0xt1' });
    expect(delivered!.updatedAt.getTime()).toBeGreaterThanOrEqual(paid!.updatedAt.getTime());
    // delivered again: the row as it stands
    expect(await ledger.markDelivered(p.id)).toMatchObject({ status: 'settled' });
    expect(await ledger.markPaid(p.id, '0xt1')).toMatchObject({ status: 'settled' });
    expect(await ledger.markDelivered('no-such-id')).toBeNull();
    expect(await ledger.markPaid('no-such-id', '0xt1')).toBeNull();
  });

  it('fails a reserved payment only, keeping the first 1,000 characters of why; a failed one can still be paid', async () => {
    const p = newPayment();
    await ledger.reserve(p);
    const failed = await ledger.markFailed(p.id, `settlement_failed: ${'x'.repeat(2000)}`);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.error).toHaveLength(1000);
    expect(await ledger.markFailed(p.id, 'again')).toBeNull();
    // a settlement that landed after it was given up: the chain is the truth
    expect(await ledger.markPaid(p.id, '0xlate')).toMatchObject({ status: 'unserved', transaction: '0xlate', error: null });
    // not unserved before: markDelivered leaves a reserved one as it is
    const q = newPayment();
    await ledger.reserve(q);
    expect(await ledger.markDelivered(q.id)).toMatchObject({ status: 'reserved' });
  });

  it('lists newest first by payer and status, and finds lapsed reservations, the longest lapsed first', async () => {
    const payer = '0x00000000000000000000000000000000000000Cc';
    const early = newPayment({ payer, deadline: new Date('2026-11-28T00:00:01.000Z') });
    const late = newPayment({ payer, deadline: new Date('2026-11-28T00:00:05.000Z') });
    const kept = newPayment({ payer, deadline: new Date('2026-11-28T01:00:00.000Z') });
    // created_at is kept to the millisecond: a few apart, so "newest first" has one answer
    for (const p of [late, early, kept]) {
      await ledger.reserve(p);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await ledger.markFailed(kept.id, 'no');
    const mine = await ledger.list({ payer: payer.toUpperCase().replace('0X', '0x') });
    expect(mine.map((r) => r.id)).toEqual([kept.id, early.id, late.id]);
    expect((await ledger.list({ payer, status: 'failed' })).map((r) => r.id)).toEqual([kept.id]);
    expect(await ledger.list({ payer, limit: 1 })).toHaveLength(1);
    const lapsed = await ledger.reservedPast(new Date('2026-11-28T00:00:06.000Z'), 100);
    const ids = lapsed.map((r) => r.id);
    expect(ids.indexOf(early.id)).toBeLessThan(ids.indexOf(late.id));
    expect(ids).not.toContain(kept.id);
    expect(await ledger.reservedPast(new Date('2026-11-28T00:00:06.000Z'), 1)).toHaveLength(1);
  });

  it('answers the same record through Prisma once the pool is closed (a client that connects again)', async () => {
    const p = newPayment();
    await ledger.reserve(p);
    const before = await ledger.find(p.id);
    const other = createPrismaClient(database.url);
    await other.$queryRawUnsafe('SELECT 1');
    await other.$disconnect();
    const again = new PaymentRepository(other);
    expect(await again.find(p.id)).toEqual(before);
    expect(await again.markFailed(p.id, 'through Prisma')).toMatchObject({
      amount: p.amount,
      validBefore: p.validBefore,
      status: 'failed',
    });
    await closePrismaClient(other);
  });
});
