import 'reflect-metadata';
import { DomainError } from '@credit/contracts/errors';
import type { RpcReplyPacket } from '@credit/contracts/rpc-wire';
import { connectNats } from '@credit/rpc/nats-connection';
import { startService, type RunningService } from '@credit/rpc/start-service';
import type { NatsConnection } from 'nats';
import { MAX_REQUEST_BYTES } from '../src/request-packet';
import { RpcClient } from '../src/rpc-client';
import { A, NATS_URL, decode, encode, sandboxModule, uniquePrefix, validScore } from './support';

/**
 * Whatever arrives on a service's subject, the replica survives it: an unreadable packet with a
 * reply subject is answered with the contract's bad-request error, one without is dropped, and
 * the next valid request is answered as usual. Nothing becomes an unhandled rejection.
 */
const PREFIX = uniquePrefix();
const SUBJECT = 'credit.sandbox.score.address.v1';
const WIRE_SUBJECT = `${PREFIX}.${SUBJECT}`;

const ScoreModule = sandboxModule(() => ({ [SUBJECT]: (request: { address: string }) => validScore(request.address) }));

const text = new TextEncoder();
const BAD_PACKETS: [string, Uint8Array][] = [
  ['garbage bytes', Uint8Array.from([0x00, 0xff, 0xfe, 0x7b, 0x22])],
  ['an empty payload', new Uint8Array(0)],
  ['null', text.encode('null')],
  ['a number', text.encode('42')],
  ['a string', text.encode('"credit"')],
  ['an array', text.encode(`[{"id":"1","data":{"address":"${A}"}}]`)],
  ['an object without an id', encode({ pattern: SUBJECT, data: { address: A } })],
  ['a numeric id', encode({ pattern: SUBJECT, data: { address: A }, id: 7 })],
  ['a huge packet', encode({ pattern: SUBJECT, data: { address: 'a'.repeat(MAX_REQUEST_BYTES) }, id: 'big' })],
];

let service: RunningService;
let nc: NatsConnection;
let client: RpcClient;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  service = await startService(ScoreModule, { service: 'sandbox', natsUrl: NATS_URL, subjectPrefix: PREFIX, healthPort: 0, silent: true });
  nc = await connectNats({ url: NATS_URL, name: 'malformed-requests-spec' });
  client = new RpcClient(nc, PREFIX, 5_000);
});

afterAll(async () => {
  client?.close();
  await nc?.close();
  await service?.close();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

/** A valid request answered, after any failure from earlier messages has had time to surface. */
async function stillAnswers(): Promise<void> {
  expect((await client.send(SUBJECT, { address: A })).address).toBe(A);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(unhandled).toEqual([]);
}

describe('a service receiving unreadable packets', () => {
  it.each(BAD_PACKETS)('%s with a reply subject → the bad-request error, and the replica still answers', async (_, payload) => {
    const msg = await nc.request(WIRE_SUBJECT, payload, { timeout: 5_000 });
    const packet = decode(msg.data) as RpcReplyPacket;
    expect(packet.response).toBeUndefined();
    const error = DomainError.fromWire(packet.err);
    expect(error?.code).toBe('invalid_body');
    expect(error?.status).toBe(400);
    await stillAnswers();
  });

  it('the same packets without a reply subject are dropped, and the replica still answers', async () => {
    const handled = (service.app.unwrap() as NatsConnection).stats().inMsgs;
    for (const [, payload] of BAD_PACKETS) nc.publish(WIRE_SUBJECT, payload);
    // A valid request without a reply subject is dropped too: every contract subject is request/reply.
    nc.publish(WIRE_SUBJECT, encode({ pattern: SUBJECT, data: { address: A }, id: 'no-reply' }));
    await nc.flush();
    await stillAnswers();
    expect((service.app.unwrap() as NatsConnection).stats().inMsgs - handled).toBeGreaterThanOrEqual(BAD_PACKETS.length + 2);
  });

  it('a readable packet whose data breaks the contract still gets the subject’s own validation error', async () => {
    const msg = await nc.request(WIRE_SUBJECT, encode({ pattern: SUBJECT, data: null, id: 'x' }), { timeout: 5_000 });
    expect(DomainError.fromWire((decode(msg.data) as RpcReplyPacket).err)?.code).toBe('invalid_parameter');
    await stillAnswers();
  });
});
