import { AdmissionQueue, AdmissionRefused, type Release } from '../src/admission-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AdmissionQueue', () => {
  it('starts up to its limit at once, then queues in order of arrival and starts each as a slot frees', async () => {
    const queue = new AdmissionQueue(2, 10);
    const first = queue.enter(1_000) as Release;
    const second = queue.enter(1_000) as Release;
    expect(typeof first).toBe('function');
    expect(typeof second).toBe('function');
    const started: number[] = [];
    const third = (queue.enter(1_000) as Promise<Release>).then((release) => (started.push(3), release));
    const fourth = (queue.enter(1_000) as Promise<Release>).then((release) => (started.push(4), release));
    expect(queue.running).toBe(2);
    expect(queue.waiting).toBe(2);
    first();
    first(); // a second release gives nothing back twice
    await tick();
    expect(started).toEqual([3]);
    expect(queue.running).toBe(2);
    second();
    await tick();
    expect(started).toEqual([3, 4]);
    (await third)();
    (await fourth)();
    expect(queue.running).toBe(0);
    expect(queue.waiting).toBe(0);
  });

  it('refuses a request only when it could not start within its wait, and never starts it afterwards', async () => {
    const queue = new AdmissionQueue(1, 10);
    const busy = queue.enter(1_000) as Release;
    const late = queue.enter(20);
    const patient = queue.enter(5_000);
    await expect(late).rejects.toEqual(new AdmissionRefused('deadline'));
    expect(queue.waiting).toBe(1);
    busy();
    const release = await patient;
    expect(queue.running).toBe(1);
    release();
    expect(queue.running).toBe(0);
  });

  it('refuses at once when its queue is full or the request has no time to wait', async () => {
    const queue = new AdmissionQueue(1, 1);
    const busy = queue.enter(1_000) as Release;
    const waiting = queue.enter(1_000);
    await expect(queue.enter(1_000)).rejects.toEqual(new AdmissionRefused('queue_full'));
    busy();
    (await waiting)();
    const again = queue.enter(1_000) as Release;
    await expect(queue.enter(0)).rejects.toEqual(new AdmissionRefused('deadline'));
    again();
  });

  it('a burst far beyond the limit all starts, in order, when each request is quick', async () => {
    const queue = new AdmissionQueue(4, 10_000);
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 2_000 }, async (_, i) => {
        const release = await queue.enter(10_000);
        order.push(i);
        await tick();
        release();
      }),
    );
    expect(order).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
    expect(queue.running).toBe(0);
  });
});
