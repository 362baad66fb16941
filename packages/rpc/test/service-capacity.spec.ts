import 'reflect-metadata';
import { connectNats } from '@credit/rpc/nats-connection';
import { startService, type RunningService } from '@credit/rpc/start-service';
import type { NatsConnection } from 'nats';
import { RpcClient } from '../src/rpc-client';
import { A, NATS_URL, deferred, domainErrorOf, sandboxModule, uniquePrefix, validScore } from './support';

/**
 * Admission by waiting time (issue 35): a replica works on at most `maxInflight` requests at once;
 * the others wait their turn in order, and only one that could not start within half its
 * subject's attempt timeout (the sandbox's: 1 s, so 500 ms), or finds `maxQueued` already
 * waiting, is answered 503, without ever reaching its handler. A close drains: every request
 * already taken, running or waiting, is answered.
 */
const SUBJECT = 'credit.sandbox.score.address.v1';
let gate = deferred<void>();
let entered = 0;
let enteredTwice = deferred<void>();

const HeldModule = sandboxModule(() => ({
  [SUBJECT]: (request: { address: string }) => {
    if (++entered === 2) enteredTwice.resolve();
    return gate.promise.then(() => validScore(request.address, 633));
  },
}));

const prefix = uniquePrefix();
let service: RunningService;
let nc: NatsConnection;
let client: RpcClient;

beforeAll(async () => {
  service = await startService(HeldModule, {
    service: 'sandbox',
    natsUrl: NATS_URL,
    subjectPrefix: prefix,
    healthPort: 0,
    silent: true,
    maxInflight: 2,
    maxQueued: 1,
  });
  nc = await connectNats({ url: NATS_URL, name: 'service-capacity-spec' });
  client = new RpcClient(nc, prefix);
});

afterAll(async () => {
  gate.resolve();
  client?.close();
  await nc?.close();
  await service?.close();
});

/** Both slots taken by requests held at the gate. */
async function holdBoth(): Promise<Promise<{ score: number }>[]> {
  entered = 0;
  gate = deferred<void>();
  enteredTwice = deferred<void>();
  const held = [client.send(SUBJECT, { address: A }), client.send(SUBJECT, { address: A })];
  await enteredTwice.promise;
  return held;
}

describe('a replica at capacity', () => {
  it('queues a request beyond maxInflight and answers it once a slot frees', async () => {
    const held = await holdBoth();
    const queued = client.send(SUBJECT, { address: A });
    await new Promise((r) => setTimeout(r, 100));
    expect(entered).toBe(2); // waiting its turn, not running
    gate.resolve();
    expect((await Promise.all([...held, queued])).map((r) => r.score)).toEqual([633, 633, 633]);
    expect(entered).toBe(3);
  });

  it('answers 503 (with a retry hint) only to a request that could not start within its wait, or that finds the queue full', async () => {
    const held = await holdBoth();
    // the replica refuses the waiting one at its own deadline (500 ms after it arrived); the
    // caller's timeout is only a backstop, long enough for a loaded machine's answer to arrive
    const waiting = domainErrorOf(client.send(SUBJECT, { address: A }, { timeoutMs: 5_000 }));
    await new Promise((r) => setTimeout(r, 50));
    const full = await domainErrorOf(client.send(SUBJECT, { address: A }, { timeoutMs: 5_000 }));
    expect(full.code).toBe('service_unavailable');
    const late = await waiting;
    expect(late.code).toBe('service_unavailable');
    expect(late.message).toBe('The sandbox service is at capacity; try again shortly');
    expect(late.data).toEqual({ retry_after: 1 });
    expect(entered).toBe(2); // neither refused request reached the handler
    gate.resolve();
    expect((await Promise.all(held)).map((r) => r.score)).toEqual([633, 633]);
  });

  it('drains on close: the requests running and the one waiting are all answered', async () => {
    const held = await holdBoth();
    const queued = client.send(SUBJECT, { address: A });
    await new Promise((r) => setTimeout(r, 50));
    const closing = service.close();
    await new Promise((r) => setTimeout(r, 50));
    gate.resolve();
    expect((await Promise.all([...held, queued])).map((r) => r.score)).toEqual([633, 633, 633]);
    await closing;
  });
});
