import 'reflect-metadata';
import { connectNats } from '@credit/rpc/nats-connection';
import { startService, type RunningService } from '@credit/rpc/start-service';
import type { NatsConnection } from 'nats';
import { RpcClient } from '../src/rpc-client';
import { A, NATS_URL, deferred, domainErrorOf, sandboxModule, uniquePrefix, validScore } from './support';

/**
 * A replica works on at most `maxInflight` requests at once and sheds the rest at once with 503,
 * instead of queueing work its callers would wait out to the subject's timeout.
 */
const SUBJECT = 'credit.sandbox.score.address.v1';
let gate = deferred<void>();
let entered = 0;
const enteredTwice = deferred<void>();

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

describe('a replica at capacity', () => {
  it('answers 503 at once beyond maxInflight, and takes requests again once it has room', async () => {
    const held = [client.send(SUBJECT, { address: A }), client.send(SUBJECT, { address: A })];
    await enteredTwice.promise; // both are being worked on
    const shed = await domainErrorOf(client.send(SUBJECT, { address: A }));
    expect(shed.code).toBe('service_unavailable');
    expect(shed.message).toBe('The sandbox service is at capacity; try again shortly');
    expect(entered).toBe(2); // the shed request never reached the handler

    gate.resolve();
    expect((await Promise.all(held)).map((r) => r.score)).toEqual([633, 633]);
    gate = deferred<void>();
    gate.resolve();
    expect((await client.send(SUBJECT, { address: A })).score).toBe(633);
  });
});
