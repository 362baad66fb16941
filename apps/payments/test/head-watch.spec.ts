import { HeadWatch } from '../src/domain/head-watch';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A chain whose head the test moves; `reads` counts the head reads. */
function chain(start = 10n) {
  const c = {
    head: start,
    reads: 0,
    failing: false,
    read: async () => {
      c.reads += 1;
      if (c.failing) throw new Error('the node is unreachable');
      return c.head;
    },
  };
  return c;
}

describe('HeadWatch', () => {
  it('answers every wait past a head with one read a poll, and reads nothing once none waits', async () => {
    const c = chain();
    const watch = new HeadWatch(c.read);
    const until = Date.now() + 5_000;
    const waits = Array.from({ length: 20 }, () => watch.past(10n, until));
    await sleep(200);
    const readsWhileWaiting = c.reads;
    expect(readsWhileWaiting).toBeGreaterThanOrEqual(1);
    c.head = 11n;
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 20 }, () => 11n));
    // twenty waits, one read a poll: far fewer reads than waits times polls
    expect(c.reads).toBeLessThan(20);
    const after = c.reads;
    await sleep(300);
    expect(c.reads).toBe(after);
  });

  it('answers at once a wait past a head it has already seen passed, and the next read for a wait past none', async () => {
    const c = chain(7n);
    const watch = new HeadWatch(c.read);
    expect(await watch.past(undefined, Date.now() + 5_000)).toBe(7n);
    const reads = c.reads;
    expect(await watch.past(6n, Date.now() + 5_000)).toBe(7n);
    expect(c.reads).toBe(reads);
  });

  it('gives undefined at the deadline, and reads again after a failed read', async () => {
    const c = chain();
    c.failing = true;
    const watch = new HeadWatch(c.read);
    expect(await watch.past(10n, Date.now() + 150)).toBeUndefined();
    expect(c.reads).toBeGreaterThanOrEqual(2);
    c.failing = false;
    const next = watch.past(10n, Date.now() + 5_000);
    c.head = 12n;
    expect(await next).toBe(12n);
  });

  /** A watch over a chain that mines a block every `blockMs`, after it has seen four heads. */
  async function watchedFor(blockMs: number): Promise<HeadWatch> {
    const c = chain();
    const watch = new HeadWatch(c.read);
    const mining = setInterval(() => (c.head += 1n), blockMs);
    try {
      let head = await watch.past(undefined, Date.now() + 5_000);
      for (let i = 0; i < 3; i++) head = await watch.past(head, Date.now() + 5_000);
      return watch;
    } finally {
      clearInterval(mining);
    }
  }

  it('tells a chain with block times (heads 100 ms or more apart) from one that mines at once', async () => {
    expect((await watchedFor(250)).slow).toBe(true);
    expect((await watchedFor(5)).slow).toBe(false);
  });
});
