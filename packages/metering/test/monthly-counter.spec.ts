import { meterWorld } from './meter-world';

/**
 * The monthly counter against a real Redis and Postgres: refunds, the month's rollover, and a counter
 * rebuilt from the ledger.
 */
const w = meterWorld();

it('a refund gives back what was not served, and the ledger holds the charge and the refund under one charge id', async () => {
  const id = await w.account();
  const m = w.meter();
  const admitted = await m.admit(w.request(id, { operation: 'scoreBatch', cost: 5 }));
  if (admitted.kind !== 'admitted' || admitted.reservation === undefined) throw new Error('not admitted');
  expect(await m.settle(admitted.reservation, 3, 200)).toBe(3);
  const failed = await m.admit(w.request(id, { operation: 'reportFull', cost: 7 }));
  if (failed.kind !== 'admitted' || failed.reservation === undefined) throw new Error('not admitted');
  expect(await m.settle(failed.reservation, 0, 503)).toBe(3);
  expect(await m.usage(id)).toMatchObject({ used: 3, byOperation: { scoreBatch: 3 } });

  await w.writeLedger();
  const entries = await w.ledger.entriesOfAccount(id);
  const rows = entries.map((e) => [e.operation, e.kind, e.cu, e.statusCode]);
  expect(rows.sort()).toEqual([
    ['reportFull', 'charge', 7, null],
    ['reportFull', 'refund', -7, 503],
    ['scoreBatch', 'charge', 5, null],
    ['scoreBatch', 'refund', -2, 200],
  ]);
  const batch = entries.filter((e) => e.operation === 'scoreBatch');
  expect(batch[1]!.chargeId).toBe(batch[0]!.chargeId);
  expect(batch.map((e) => e.entryId).sort()).toEqual([batch[0]!.chargeId, `${batch[0]!.chargeId}:refund`].sort());
  expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 3, byOperation: { scoreBatch: 3 } });
});

it('the month rolls over by itself: a new counter, the old month kept apart; a refund lands in its charge’s month', async () => {
  const id = await w.account();
  const m = w.meter();
  w.now = Date.UTC(2026, 10, 30, 23, 59, 59, 500);
  for (let i = 0; i < 3; i++) await m.admit(w.request(id, { allowance: 3 }));
  const refused = await m.admit(w.request(id, { allowance: 3 }));
  expect(refused).toMatchObject({ kind: 'credit_exceeded', used: 3 });
  expect(refused.kind === 'credit_exceeded' && refused.period.end.toISOString()).toBe('2026-12-01T00:00:00.000Z');
  const late = await m.admit(w.request(id, { allowance: 10 }));
  w.now = Date.UTC(2026, 11, 1, 0, 0, 1);
  expect((await m.admit(w.request(id, { allowance: 3 }))).kind).toBe('admitted');
  if (late.kind !== 'admitted' || late.reservation === undefined) throw new Error('not admitted');
  await m.settle(late.reservation, 0, 500);
  expect(await m.usage(id)).toMatchObject({ used: 1, period: { id: '2026-12' } });
  expect(await m.peek(id, '2026-11')).toMatchObject({ used: 3 });
});

it('a counter Redis lost is rebuilt from the ledger before anything is charged on it', async () => {
  const id = await w.account();
  const m = w.meter();
  for (let i = 0; i < 4; i++) await m.admit(w.request(id, { operation: i % 2 === 0 ? 'scoreAddress' : 'identityAttestations' }));
  await w.writeLedger();
  await w.redis.del(w.keys.counter(id, '2026-11'));

  expect(await m.usage(id)).toMatchObject({ used: 4, byOperation: { scoreAddress: 2, identityAttestations: 2 } });
  await w.redis.del(w.keys.counter(id, '2026-11'));
  const results = await Promise.all(Array.from({ length: 20 }, () => m.admit(w.request(id, { allowance: 10 }))));
  expect(results.filter((r) => r.kind === 'admitted')).toHaveLength(6);
  expect((await m.usage(id)).used).toBe(10);
});
