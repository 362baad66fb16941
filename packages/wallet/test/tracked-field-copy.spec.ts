import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from '@credit/testing/private-redis';
import { TrackedFieldCopy } from '../src/tracked-field-copy';

/**
 * The in-process copy of verdicts against a redis-server of its own (its command counts are this
 * test's alone): kept reads ask Redis nothing, and whatever changes a kept key in Redis (another
 * client's write, a DEL, a flush, a lost connection) is seen on the next read.
 */
let redis: PrivateRedis;
let other: Redis;
let copy: TrackedFieldCopy;
let clock = 1_000_000;
const warnings: string[] = [];

const hgetCalls = async (): Promise<number> => {
  const stats = await other.info('commandstats');
  return Number(/cmdstat_hget:calls=(\d+)/.exec(stats)?.[1] ?? 0);
};

async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  other = new Redis(redis.url);
  copy = TrackedFieldCopy.open(redis.url, 'test', { warn: (m) => warnings.push(m) }, () => clock);
  await eventually('tracking on', async () => (copy.keeping ? true : undefined));
});

afterAll(async () => {
  await copy?.close();
  other?.disconnect();
  await redis?.stop();
});

describe('TrackedFieldCopy', () => {
  it('answers a repeated read from the process: Redis is asked once', async () => {
    await other.hset('w:a', 'score', 'v1');
    expect(await copy.hgetMany(['w:a', 'w:none'], 'score')).toEqual(['v1', null]);
    const calls = await hgetCalls();
    expect(await copy.hgetMany(['w:a'], 'score')).toEqual(['v1']);
    expect(await copy.hgetMany(['w:a'], 'score')).toEqual(['v1']);
    expect(await hgetCalls()).toBe(calls);
  });

  it("sees another client's write, a DEL and a flush on the next read after Redis says so", async () => {
    await other.hset('w:b', 'score', 'old');
    expect(await copy.hgetMany(['w:b'], 'score')).toEqual(['old']);
    await other.hset('w:b', 'score', 'new');
    await eventually('the write seen', async () => ((await copy.hgetMany(['w:b'], 'score'))[0] === 'new' ? true : undefined));
    await other.del('w:b');
    await eventually('the DEL seen', async () => ((await copy.hgetMany(['w:b'], 'score'))[0] === null ? true : undefined));
    await other.hset('w:c', 'score', 'kept');
    expect(await copy.hgetMany(['w:c'], 'score')).toEqual(['kept']);
    await other.flushall();
    await eventually('the flush seen', async () => ((await copy.hgetMany(['w:c'], 'score'))[0] === null ? true : undefined));
  });

  it('drops a key this process says it wrote at once, and keeps nothing of a read that was out meanwhile', async () => {
    await other.hset('w:f', 'score', 'mine');
    await copy.hgetMany(['w:f'], 'score');
    const calls = await hgetCalls();
    // no write reaches Redis here, so no invalidation comes: only `wrote` can drop the kept text
    copy.wrote(['w:f']);
    await copy.hgetMany(['w:f'], 'score');
    expect(await hgetCalls()).toBe(calls + 1);
    await other.hset('w:g', 'score', 'out');
    const out = copy.hgetMany(['w:g'], 'score');
    copy.wrote(['w:other']);
    expect(await out).toEqual(['out']);
    await copy.hgetMany(['w:g'], 'score');
    expect(await hgetCalls()).toBe(calls + 3);
  });

  it('reads a kept field again once it is ten seconds old', async () => {
    await other.hset('w:d', 'score', 'v');
    await copy.hgetMany(['w:d'], 'score');
    const calls = await hgetCalls();
    clock += 9_999;
    await copy.hgetMany(['w:d'], 'score');
    expect(await hgetCalls()).toBe(calls);
    clock += 1;
    await copy.hgetMany(['w:d'], 'score');
    expect(await hgetCalls()).toBe(calls + 1);
  });

  it('asks Redis once for a field many requests miss at once, unless a write came between them', async () => {
    await other.hset('w:h', 'score', 'one');
    const calls = await hgetCalls();
    const burst = await Promise.all([1, 2, 3, 4].map(() => copy.hgetMany(['w:h', 'w:none'], 'score')));
    expect(burst).toEqual([1, 2, 3, 4].map(() => ['one', null]));
    expect(await hgetCalls()).toBe(calls + 2);
    // aged out, read again; this process then writes the key while that read is out: a read after
    // the write does not take the answer of the one before it
    clock += 10_000;
    const before = copy.hgetMany(['w:h'], 'score');
    copy.wrote(['w:h']);
    const after = copy.hgetMany(['w:h'], 'score');
    expect(await Promise.all([before, after])).toEqual([['one'], ['one']]);
    expect(await hgetCalls()).toBe(calls + 4);
  });

  it('peeks only at what a read would take from the process: never before a read, nor once aged, written or changed', async () => {
    await other.hset('w:p', 'score', 'first');
    expect(copy.peek('w:p', 'score')).toBeUndefined();
    await copy.hgetMany(['w:p'], 'score');
    expect(copy.peek('w:p', 'score')).toBe('first');
    expect(copy.peek('w:p', 'other')).toBeUndefined();
    clock += 10_000;
    expect(copy.peek('w:p', 'score')).toBeUndefined();
    await copy.hgetMany(['w:p'], 'score');
    copy.wrote(['w:p']);
    expect(copy.peek('w:p', 'score')).toBeUndefined();
    await copy.hgetMany(['w:p'], 'score');
    await other.hset('w:p', 'score', 'second');
    await eventually('the write seen', async () => (copy.peek('w:p', 'score') === undefined ? true : undefined));
    expect(await copy.hgetMany(['w:p'], 'score')).toEqual(['second']);
    expect(copy.peek('w:p', 'score')).toBe('second');
  });

  it('keeps nothing while its invalidations cannot arrive, and tracks again once they can', async () => {
    await other.hset('w:e', 'score', 'before');
    expect(await copy.hgetMany(['w:e'], 'score')).toEqual(['before']);
    // the connection Redis sends invalidations to is dropped (as by a network cut)
    await other.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await eventually('the copy dropped', async () => (copy.keeping ? undefined : true));
    expect(copy.peek('w:e', 'score')).toBeUndefined();
    await eventually('tracking on again', async () => (copy.keeping ? true : undefined));
    // the write below reaches the new connection: the kept value does not outlive it
    expect(await copy.hgetMany(['w:e'], 'score')).toEqual(['before']);
    await other.hset('w:e', 'score', 'after');
    await eventually('the write seen', async () => ((await copy.hgetMany(['w:e'], 'score'))[0] === 'after' ? true : undefined));
    // the reads' own connection dropped: the same
    const reads = (await other.client('LIST')) as string;
    const id = /id=(\d+) [^\n]*name=credit-test-tracked/.exec(reads)?.[1];
    expect(id).toBeDefined();
    await other.call('CLIENT', 'KILL', 'ID', id!);
    await eventually('the copy dropped', async () => (copy.keeping ? undefined : true));
    await eventually('tracking on again', async () => (copy.keeping ? true : undefined));
    expect(await copy.hgetMany(['w:e'], 'score')).toEqual(['after']);
    await other.hset('w:e', 'score', 'last');
    await eventually('the write seen', async () => ((await copy.hgetMany(['w:e'], 'score'))[0] === 'last' ? true : undefined));
    expect(warnings).toEqual([]);
  });
});
