import { Redis } from 'ioredis';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { redisSendLocks, SignerSendLock } from '../src/domain/signer-send-lock';

/**
 * The signer's send lock on the real Redis: two locks on one key stand for two payments replicas
 * holding the same signer. Sends never overlap, across replicas or inside one; a live holder keeps
 * its lease past its length; a holder that died frees the signer when its lease lapses; a holder
 * that lost its lease never frees its successor's.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let redis: Redis;
let key: string;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});

beforeEach(() => {
  key = `${uniquePrefix('sendlock')}:x402:send:0xsigner:84532`;
});

afterEach(async () => {
  await redis.del(key);
});

afterAll(async () => {
  await redis.quit();
});

const lock = (options: Partial<{ leaseMs: number; waitMs: number }> = {}) =>
  new SignerSendLock(redis, { key, leaseMs: options.leaseMs ?? 5_000, waitMs: options.waitMs ?? 10_000 });

it('sends from two replicas and from inside each never overlap, and every one runs', async () => {
  const replicas = [lock(), lock()];
  let inside = 0;
  let most = 0;
  const ran: number[] = [];
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      replicas[i % 2]!.hold(async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(2);
        ran.push(i);
        inside -= 1;
      }),
    ),
  );
  expect(most).toBe(1);
  expect([...ran].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  // nothing left held
  expect(await redis.exists(key)).toBe(0);
});

it("inside one replica, sends run in the order they asked (each settlement's nonce follows the one before)", async () => {
  const one = lock();
  const order: number[] = [];
  await Promise.all(Array.from({ length: 10 }, (_, i) => one.hold(async () => void order.push(i))));
  expect(order).toEqual(Array.from({ length: 10 }, (_, i) => i));
});

it('a failed send gives its error to its caller and frees the signer for the next', async () => {
  const one = lock();
  await expect(one.hold(async () => Promise.reject(new Error('nonce too low')))).rejects.toThrow('nonce too low');
  expect(await redis.exists(key)).toBe(0);
  await expect(one.hold(async () => 'sent')).resolves.toBe('sent');
});

it('a holder that died (its lease left behind) holds the signer until the lease lapses; a wait shorter than that fails', async () => {
  await redis.set(key, 'a replica that died', 'PX', 400);
  await expect(lock({ waitMs: 100 }).hold(async () => 'sent')).rejects.toThrow(/^signer_busy: .*stayed held/);
  // it runs once the dead holder's lease is gone, under a lease of its own
  await expect(lock().hold(() => redis.get(key))).resolves.toMatch(/^[0-9a-f-]{36}$/);
  expect(await redis.exists(key)).toBe(0);
});

it('a live holder renews its lease: a send longer than the lease is not overlapped by another replica', async () => {
  const slow = lock({ leaseMs: 150 });
  const other = lock({ leaseMs: 150 });
  const events: string[] = [];
  const first = slow.hold(async () => {
    events.push('first in');
    await sleep(600);
    events.push('first out');
  });
  await sleep(20);
  await Promise.all([first, other.hold(async () => void events.push('second in'))]);
  expect(events).toEqual(['first in', 'first out', 'second in']);
});

it("a holder whose lease was lost mid-send (it lapsed, another replica took it) never frees its successor's", async () => {
  const one = lock();
  await one.hold(async () => {
    // as if this holder's lease lapsed while it stalled, and another replica took the signer
    await redis.set(key, 'the next holder', 'PX', 5_000);
  });
  expect(await redis.get(key)).toBe('the next holder');
});

it('one lock per signer and chain: another chain or another signer is not held up', async () => {
  const locks = redisSendLocks(redis, 'p', { leaseMs: 5_000, waitMs: 10_000 });
  expect(locks('0xAB', 1)).toBe(locks('0xab', 1));
  expect(locks('0xab', 1)).not.toBe(locks('0xab', 2));
  expect(locks('0xab', 1)).not.toBe(locks('0xcd', 1));
});
