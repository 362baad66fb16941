import { Redis } from 'ioredis';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import type { LedgerEntry } from '../src/ledger-entry';
import { ledgerLine } from '../src/ledger-line';
import { meterWorld, REDIS_URL } from './meter-world';

/**
 * The ledger pipeline against a real Redis and Postgres: a ledger that equals the counter once drained,
 * whatever consumer or replica died on the way, and malformed outbox entries skipped.
 */
const w = meterWorld();

it('entries a dead consumer read and never acknowledged are taken over and written once', async () => {
  const id = await w.account();
  const m = w.meter();
  for (let i = 0; i < 30; i++) await m.admit(w.request(id));
  await w.redis.xgroup('CREATE', w.keys.outbox, 'ledger', '0', 'MKSTREAM');
  // A consumer reads 10 entries and dies before queueing them.
  await w.redis.xreadgroup('GROUP', 'ledger', 'dead', 'COUNT', 10, 'STREAMS', w.keys.outbox, '>');
  const p = w.pipeline('alive');
  await p.start();
  await new Promise((r) => setTimeout(r, 300)); // past claimIdleMs
  await w.drain(p);
  await p.close();
  expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 30, byOperation: { scoreAddress: 30 } });
  expect(await w.ledger.entriesOfAccount(id)).toHaveLength(30);
});

it('a replica that dies between queueing a batch and acknowledging it: the batch is written once, nothing lost', async () => {
  const id = await w.account();
  const m = w.meter();
  for (let i = 0; i < 30; i++) await m.admit(w.request(id, { requestId: `r${i}` }));
  // The dying replica queues the outbox's batch (its ids), then dies before its XACK.
  const dying = new Redis(redisOptionsFromUrl(REDIS_URL));
  try {
    dying.xack = (() => Promise.reject(new Error('killed'))) as unknown as Redis['xack'];
    const warnings: string[] = [];
    const first = w.pipeline('dying', (message) => warnings.push(message), w.ledger, dying);
    await first.pump(); // makes the group
    await first.pump(); // queues the batch; the XACK fails
    await first.close();
    expect(warnings.some((message) => message.includes('killed'))).toBe(true);
  } finally {
    dying.disconnect();
  }
  expect(await w.redis.xlen(w.keys.outbox)).toBe(30);
  expect((await w.redis.xpending(w.keys.outbox, 'ledger'))[0]).toBe(30);
  await new Promise((r) => setTimeout(r, 300)); // past claimIdleMs: the survivor takes the entries over too
  await w.writeLedger(w.pipeline('alive'));
  const rows = await w.ledger.entriesOfAccount(id);
  expect(rows.map((r) => r.requestId).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `r${i}`).sort());
  expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 30, byOperation: { scoreAddress: 30 } });
  expect(await w.redis.xlen(w.keys.outbox)).toBe(0);
});

it('outbox messages the store refuses are written entry by entry: the good entries land once, the malformed are logged and skipped', async () => {
  const id = await w.account();
  const m = w.meter();
  for (let i = 0; i < 3; i++) await m.admit(w.request(id, { keyId: 'k1', requestId: `r${i}` }));
  const entry = (chargeId: string, fields: Partial<LedgerEntry> = {}) =>
    ledgerLine({
      entryId: chargeId,
      chargeId,
      accountId: id,
      keyId: null,
      operation: 'reportFull',
      kind: 'charge',
      cu: 2,
      statusCode: null,
      requestId: 'x',
      period: '2026-11',
      at: w.now + 1,
      ...fields,
    });
  // one message with a good entry and two the check refuses, one cut off, one empty
  const gift = entry('bad-kind').replace('\tcharge\t', '\tgift\t');
  await w.redis.xadd(w.keys.outbox, '*', 'e', `${entry('good-1')}${entry('bad-cu', { cu: 1.5 })}${gift}`);
  await w.redis.xadd(w.keys.outbox, '*', 'e', entry('cut-off').slice(0, 60));
  await w.redis.xadd(w.keys.outbox, '*', 'e', '');
  await w.redis.xadd(w.keys.outbox, '*', 'e', entry('good-2', { keyId: 'k2', statusCode: 200 }));
  const warnings: string[] = [];
  await w.writeLedger(w.pipeline('c1', (message) => warnings.push(message)));
  const rows = await w.ledger.entriesOfAccount(id);
  expect(rows.map((r) => r.entryId).filter((e) => /^(good|bad|cut)/.test(e))).toEqual(['good-1', 'good-2']);
  expect(rows.find((r) => r.entryId === 'good-2')).toMatchObject({ keyId: 'k2', statusCode: 200, cu: 2, occurredAt: new Date(w.now + 1) });
  expect(rows.filter((r) => r.operation === 'scoreAddress').map((r) => [r.keyId, r.requestId, r.occurredAt.getTime()])).toEqual([
    ['k1', 'r0', w.now],
    ['k1', 'r1', w.now],
    ['k1', 'r2', w.now],
  ]);
  expect(await w.ledger.periodTotals(id, '2026-11')).toEqual({ used: 7, byOperation: { scoreAddress: 3, reportFull: 4 } });
  expect(warnings.filter((message) => message.includes('skipped'))).toHaveLength(3);
});
