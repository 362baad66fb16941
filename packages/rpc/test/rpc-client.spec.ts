import { DomainError } from '@credit/contracts/errors';
import { RPC_HEADERS, type RpcRequestPacket } from '@credit/contracts/rpc-wire';
import { connectNats } from '@credit/rpc/nats-connection';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { RpcClient } from '../src/rpc-client';
import { A, NATS_URL, codeOf, decode, deferred, domainErrorOf, encode, uniquePrefix, validScore } from './support';
import { startRequestTrace } from '@credit/telemetry/request-trace';

/**
 * RpcClient against the real NATS server, with raw `nats` subscribers standing in for services so
 * every reply shape (good, domain error, garbage, contract breach, silence) can be produced.
 * Each test gets its own subject prefix and client.
 */
const SCORE = 'credit.sandbox.score.address.v1';

let nc: NatsConnection; // the client's connection
let rc: NatsConnection; // the raw responders' connection
const clients: RpcClient[] = [];
const subscriptions: Subscription[] = [];

beforeAll(async () => {
  nc = await connectNats({ url: NATS_URL, name: 'rpc-client-spec' });
  rc = await connectNats({ url: NATS_URL, name: 'rpc-client-spec-responder' });
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  for (const sub of subscriptions.splice(0)) sub.unsubscribe();
});

afterAll(async () => {
  await nc?.close();
  await rc?.close();
});

function client(prefix: string, maxTimeoutMs?: number): RpcClient {
  const c = new RpcClient(nc, prefix, maxTimeoutMs);
  clients.push(c);
  return c;
}

/** A raw subscriber on `<prefix>.<subject>`; the handler decides whether and how to answer. */
async function responder(subject: string, handle: (msg: Msg) => void): Promise<Subscription> {
  const sub = rc.subscribe(subject, { callback: (error, msg) => (error ? undefined : handle(msg)) });
  subscriptions.push(sub);
  await rc.flush(); // the subscription is known to the server before anyone publishes
  return sub;
}

const packetOf = (msg: Msg) => decode(msg.data) as RpcRequestPacket;
const reply = (msg: Msg, body: Record<string, unknown>) => msg.respond(encode({ id: packetOf(msg).id, isDisposed: true, ...body }));

describe('RpcClient.send: the ways a call ends', () => {
  it('nobody serves the subject → service_unavailable (503)', async () => {
    const error = await domainErrorOf(client(uniquePrefix()).send(SCORE, { address: A }));
    expect(error.code).toBe('service_unavailable');
    expect(error.status).toBe(503);
    expect(error.message).toContain('sandbox');
  });

  it('a subscriber that never answers → upstream_timeout (504) after the capped timeout', async () => {
    const prefix = uniquePrefix();
    const received = deferred<Msg>();
    await responder(`${prefix}.${SCORE}`, (msg) => received.resolve(msg));
    const error = await domainErrorOf(client(prefix, 300).send(SCORE, { address: A }));
    expect(error.code).toBe('upstream_timeout');
    expect(error.status).toBe(504);
    expect(error.message).toContain('300 ms');
    // It did reach the subscriber: this is the timeout path, not the no-responders one.
    expect(packetOf(await received.promise).data).toEqual({ address: A, include_factors: false });
  });

  it('the per-call timeout applies, but never beyond the client cap', async () => {
    const prefix = uniquePrefix();
    await responder(`${prefix}.${SCORE}`, () => undefined);
    const lower = await domainErrorOf(client(prefix, 5_000).send(SCORE, { address: A }, { timeoutMs: 150 }));
    expect(lower.code).toBe('upstream_timeout');
    expect(lower.message).toContain('150 ms');
    const capped = await domainErrorOf(client(prefix, 200).send(SCORE, { address: A }, { timeoutMs: 60_000 }));
    expect(capped.code).toBe('upstream_timeout');
    expect(capped.message).toContain('200 ms');
  });

  it('an err packet with a known code → a DomainError with that code, message and data', async () => {
    const prefix = uniquePrefix();
    await responder(`${prefix}.${SCORE}`, (msg) => reply(msg, { err: { code: 'address_not_found', message: 'x', data: { hint: 'h' } } }));
    const error = await domainErrorOf(client(prefix, 5_000).send(SCORE, { address: A }));
    expect(error.code).toBe('address_not_found');
    expect(error.message).toBe('x');
    expect(error.data).toEqual({ hint: 'h' });
    expect(error.status).toBe(404);
  });

  it('an err packet with an unknown code or no structure → internal', async () => {
    const prefix = uniquePrefix();
    const errs: unknown[] = [
      { code: 'teapot', message: 'x' },
      'There is no matching message handler defined in the remote service.',
      { message: 'no code' },
    ];
    let i = 0;
    await responder(`${prefix}.${SCORE}`, (msg) => reply(msg, { err: errs[i++] }));
    const c = client(prefix, 5_000);
    for (let k = 0; k < errs.length; k++) {
      const error = await domainErrorOf(c.send(SCORE, { address: A }));
      expect(error.code).toBe('internal');
      expect(error.message).not.toContain('teapot');
    }
  });

  it.each([
    ['garbage bytes', new Uint8Array([0xff, 0x00, 0x7b, 0x22])],
    ['truncated JSON', new TextEncoder().encode('{"id":"0","response":')],
    ['a JSON number', new TextEncoder().encode('42')],
    ['JSON null', new TextEncoder().encode('null')],
  ])('a reply of %s → internal', async (_label, bytes) => {
    const prefix = uniquePrefix();
    await responder(`${prefix}.${SCORE}`, (msg) => msg.respond(bytes));
    const error = await domainErrorOf(client(prefix, 5_000).send(SCORE, { address: A }));
    expect(error.code).toBe('internal');
    expect(error.message).toContain(SCORE);
  });

  it('a response that breaks the reply schema → internal', async () => {
    const prefix = uniquePrefix();
    await responder(`${prefix}.${SCORE}`, (msg) => reply(msg, { response: { ...validScore(), score: 5000 } }));
    const error = await domainErrorOf(client(prefix, 5_000).send(SCORE, { address: A }));
    expect(error.code).toBe('internal');
    expect(error.message).toContain('score');
  });

  it('a packet with neither response nor err → internal (the reply is undefined)', async () => {
    const prefix = uniquePrefix();
    await responder(`${prefix}.${SCORE}`, (msg) => reply(msg, {}));
    expect(await codeOf(client(prefix, 5_000).send(SCORE, { address: A }))).toBe('internal');
  });

  it('a valid response → the parsed reply (fields outside the contract dropped)', async () => {
    const prefix = uniquePrefix();
    await responder(`${prefix}.${SCORE}`, (msg) => reply(msg, { response: { ...validScore(), leaked: 'internal' }, err: null }));
    const result = await client(prefix, 5_000).send(SCORE, { address: A });
    expect(result).toEqual(validScore());
    expect(result).not.toHaveProperty('leaked');
  });
});

describe('RpcClient.send: what goes on the wire', () => {
  it('publishes {pattern, data, id} on <prefix>.<subject> with the request headers', async () => {
    const prefix = uniquePrefix();
    const received = deferred<Msg>();
    await responder(`${prefix}.>`, (msg) => {
      received.resolve(msg);
      reply(msg, { response: validScore() });
    });
    await client(prefix, 5_000).send(SCORE, { address: `  ${A} `, include_factors: true }, { requestId: 'req-123' });
    const msg = await received.promise;
    expect(msg.subject).toBe(`${prefix}.${SCORE}`);
    expect(msg.headers?.get(RPC_HEADERS.requestId)).toBe('req-123');
    expect(RPC_HEADERS).toEqual({ requestId: 'x-request-id', traceparent: 'traceparent' });
    const packet = packetOf(msg);
    expect(Object.keys(packet).sort()).toEqual(['data', 'id', 'pattern']);
    expect(packet.pattern).toBe(SCORE); // the bare contract subject
    expect(packet.data).toEqual({ address: A, include_factors: true }); // validated and trimmed
    expect(typeof packet.id).toBe('string');
    expect(msg.reply).toBeDefined();
    expect(msg.reply!.endsWith(`.${packet.id}`)).toBe(true);
  });

  it('sends the parsed request (defaults filled in) and no metadata headers when none are given', async () => {
    const prefix = uniquePrefix();
    const received = deferred<Msg>();
    await responder(`${prefix}.${SCORE}`, (msg) => {
      received.resolve(msg);
      reply(msg, { response: validScore() });
    });
    await client(prefix, 5_000).send(SCORE, { address: A });
    const msg = await received.promise;
    expect(packetOf(msg).data).toEqual({ address: A, include_factors: false });
    expect(msg.headers?.get(RPC_HEADERS.requestId) ?? '').toBe('');
    expect(msg.headers?.get(RPC_HEADERS.traceparent) ?? '').toBe('');
  });

  it('sent while a request is handled, carries that request’s traceparent (same trace, this hop’s span)', async () => {
    const prefix = uniquePrefix();
    const received = deferred<Msg>();
    await responder(`${prefix}.${SCORE}`, (msg) => {
      received.resolve(msg);
      reply(msg, { response: validScore() });
    });
    const request = startRequestTrace('GET /x', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', 'req-9');
    await request.run(() => client(prefix, 5_000).send(SCORE, { address: A }));
    const sent = (await received.promise).headers?.get(RPC_HEADERS.traceparent);
    expect(sent).toBe(request.ids.traceparent);
    expect(sent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-(?!00f067aa0ba902b7)[0-9a-f]{16}-01$/);
  });

  it('an invalid request throws its error code (docs/API.md §7) before anything is published', async () => {
    const prefix = uniquePrefix();
    const subjects: string[] = [];
    await responder(`${prefix}.>`, (msg) => {
      subjects.push(msg.subject);
      reply(msg, { response: validScore() });
    });
    const c = client(prefix, 5_000);
    const tooMany = Array.from({ length: 101 }, () => A);
    const error = await domainErrorOf(c.send('credit.sandbox.score.batch.v1', { addresses: tooMany }));
    expect(error.code).toBe('batch_too_large');
    expect(error.message).toContain('100');
    expect(await codeOf(c.send('credit.sandbox.report.enhanced.v1', { address: A, source: {} as { name: string } }))).toBe(
      'missing_source_name',
    );
    // A valid request after them: NATS keeps one connection's messages in order, so had either
    // invalid request been published, the subscriber would have seen it first.
    await c.send(SCORE, { address: A });
    expect(subjects).toEqual([`${prefix}.${SCORE}`]);
  });

  it('concurrent calls each get their own reply, whatever order the replies come in', async () => {
    const prefix = uniquePrefix();
    const held: Msg[] = [];
    const n = 20;
    await responder(`${prefix}.${SCORE}`, (msg) => {
      held.push(msg);
      if (held.length === n) {
        for (const m of held.reverse()) {
          const i = Number((packetOf(m).data as { address: string }).address.replace(/\D/g, ''));
          reply(m, { response: validScore(A, 300 + i) });
        }
      }
    });
    const c = client(prefix, 5_000);
    const results = await Promise.all(Array.from({ length: n }, (_, i) => c.send(SCORE, { address: `n${i}.eth` })));
    expect(results.map((r) => r.score)).toEqual(Array.from({ length: n }, (_, i) => 300 + i));
  });
});

describe('RpcClient: late replies and close()', () => {
  it('a reply arriving after the timeout is ignored and the client keeps working', async () => {
    const prefix = uniquePrefix();
    const held: Msg[] = [];
    const first = deferred<void>();
    await responder(`${prefix}.${SCORE}`, (msg) => {
      if (held.length === 0) {
        held.push(msg); // the first request: hold it past the timeout
        first.resolve();
      } else {
        reply(msg, { response: validScore(A, 500) });
      }
    });
    const c = client(prefix, 300);
    expect(await codeOf(c.send(SCORE, { address: A }))).toBe('upstream_timeout');
    await first.promise;
    reply(held[0]!, { response: validScore(A, 999) }); // the late reply
    // Published on the same connection before the next reply, so it reaches the client first.
    const next = await c.send(SCORE, { address: A });
    expect(next.score).toBe(500);
  });

  it('close() fails a pending request as service_unavailable', async () => {
    const prefix = uniquePrefix();
    const received = deferred<void>();
    await responder(`${prefix}.${SCORE}`, () => received.resolve());
    const c = new RpcClient(nc, prefix); // no cap: the sandbox's own 3 s timeout
    const pending = domainErrorOf(c.send(SCORE, { address: A }));
    await received.promise; // the request is out and waiting
    c.close();
    const error = await pending;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('service_unavailable');
    expect(error.message).not.toContain('did not answer');
  });
});
