import { SUBJECTS } from '@credit/contracts/subjects';
import { connectNats } from '@credit/rpc/nats-connection';
import { startPrivateNats, type PrivateNats } from '@credit/testing/private-nats';
import { Events, type Msg, type NatsConnection, type Subscription } from 'nats';
import { RpcClient } from '../src/rpc-client';
import { A, NATS_URL, codeOf, decode, encode, uniquePrefix, validScore } from './support';

/**
 * RpcClient asks an idempotent subject again when an attempt goes unanswered (a replica killed
 * with the request in hand), asks any subject again while nobody is subscribed (a replica
 * restarting), and refuses at once while the bus is down. Raw `nats` subscribers stand in for
 * the replicas.
 */
const SCORE = 'credit.sandbox.score.address.v1';
const { timeoutMs: DEADLINE, attemptTimeoutMs: ATTEMPT } = SUBJECTS[SCORE];

let nc: NatsConnection;
let rc: NatsConnection;
const subscriptions: Subscription[] = [];
const clients: RpcClient[] = [];

beforeAll(async () => {
  nc = await connectNats({ url: NATS_URL, name: 'rpc-retries-spec' });
  rc = await connectNats({ url: NATS_URL, name: 'rpc-retries-spec-replicas' });
});

afterEach(() => {
  for (const c of clients.splice(0)) c.close();
  for (const s of subscriptions.splice(0)) s.unsubscribe();
});

afterAll(async () => {
  await nc?.close();
  await rc?.close();
});

function client(prefix: string): RpcClient {
  const c = new RpcClient(nc, prefix);
  clients.push(c);
  return c;
}

interface Seen {
  id: string;
}

/** A replica that swallows the first `swallow` requests (as a killed one would) and answers the rest. */
async function replica(prefix: string, swallow: number, seen: Seen[] = []): Promise<Seen[]> {
  const sub = rc.subscribe(`${prefix}.${SCORE}`, {
    queue: 'sandbox',
    callback: (error, msg: Msg) => {
      if (error) return;
      const { id } = decode(msg.data) as { id: string };
      seen.push({ id });
      if (seen.length > swallow) msg.respond(encode({ id, isDisposed: true, response: validScore(A, 640) }));
    },
  });
  subscriptions.push(sub);
  await rc.flush();
  return seen;
}

describe('RpcClient: asking again', () => {
  it('the contract gives every subject an attempt timeout below its deadline, but the one that must not run twice', () => {
    // verifying a payment takes its nonce: a second attempt would be refused as already used
    const once = Object.values(SUBJECTS)
      .filter((def) => def.attemptTimeoutMs === undefined)
      .map((def) => def.subject);
    expect(once).toEqual(['credit.payments.verify.v1']);
    for (const def of Object.values(SUBJECTS).filter((d) => d.attemptTimeoutMs !== undefined)) {
      expect(def.attemptTimeoutMs!).toBeLessThan(def.timeoutMs);
      expect(def.attemptTimeoutMs! * 2).toBeLessThanOrEqual(def.timeoutMs); // room for a second attempt
    }
  });

  it('an attempt left unanswered (a replica killed mid-request) is asked again and answered within the deadline', async () => {
    const prefix = uniquePrefix();
    const seen = await replica(prefix, 1);
    const started = Date.now();
    const reply = await client(prefix).send(SCORE, { address: A });
    expect(reply.score).toBe(640);
    expect(seen).toHaveLength(2);
    expect(seen[0]!.id).not.toBe(seen[1]!.id); // a new attempt, not a duplicate delivery
    expect(Date.now() - started).toBeLessThan(DEADLINE!);
  });

  it('every attempt unanswered → 504 at the deadline, after as many attempts as fit in it', async () => {
    const prefix = uniquePrefix();
    const seen = await replica(prefix, Infinity);
    expect(await codeOf(client(prefix).send(SCORE, { address: A }))).toBe('upstream_timeout');
    expect(seen).toHaveLength(Math.ceil(DEADLINE / ATTEMPT!));
  });

  it('a late reply to an earlier attempt still ends the call', async () => {
    const prefix = uniquePrefix();
    const held: Msg[] = [];
    const sub = rc.subscribe(`${prefix}.${SCORE}`, {
      callback: (_, msg) => {
        held.push(msg);
        // the first attempt is answered just after the second one went out; the second never is
        if (held.length === 2) {
          const { id } = decode(held[0]!.data) as { id: string };
          held[0]!.respond(encode({ id, isDisposed: true, response: validScore(A, 701) }));
        }
      },
    });
    subscriptions.push(sub);
    await rc.flush();
    expect((await client(prefix).send(SCORE, { address: A })).score).toBe(701);
    expect(held).toHaveLength(2);
  });

  it('nobody subscribed while a replica restarts: asked again until it is back', async () => {
    const prefix = uniquePrefix();
    const pending = client(prefix).send(SCORE, { address: A });
    await new Promise((r) => setTimeout(r, 250));
    await replica(prefix, 0);
    expect((await pending).score).toBe(640);
  });

  it('nobody subscribed at all → 503 after a second and a half, long before the deadline', async () => {
    const started = Date.now();
    expect(await codeOf(client(uniquePrefix()).send(SCORE, { address: A }))).toBe('service_unavailable');
    expect(Date.now() - started).toBeLessThan(DEADLINE);
  });
});

describe('RpcClient while the bus is down', () => {
  let bus: PrivateNats;
  let conn: NatsConnection;

  beforeAll(async () => {
    bus = await startPrivateNats();
    conn = await connectNats({ url: bus.url, name: 'rpc-retries-spec-private' });
  });

  afterAll(async () => {
    await conn?.close().catch(() => undefined);
    await bus?.stop();
  });

  it('refuses at once with 503 while disconnected, and answers again once the server is back', async () => {
    const prefix = uniquePrefix();
    const c = new RpcClient(conn, prefix);
    clients.push(c);
    const serve = (nc: NatsConnection) =>
      nc.subscribe(`${prefix}.${SCORE}`, {
        callback: (_, msg) =>
          msg.respond(encode({ id: (decode(msg.data) as { id: string }).id, isDisposed: true, response: validScore(A, 655) })),
      });
    serve(conn);
    expect((await c.send(SCORE, { address: A })).score).toBe(655);

    // a request in flight when the server goes: its reply went with it, so it ends now, as 503
    const silent = `${prefix}.credit.sandbox.score.enhanced.v1`;
    conn.subscribe(silent, { callback: () => undefined });
    await conn.flush();
    const inFlight = codeOf(c.send('credit.sandbox.score.enhanced.v1', { address: A }));
    const disconnected = nextStatus(conn, Events.Disconnect);
    await bus.stop();
    await disconnected;
    expect(await inFlight).toBe('service_unavailable');
    expect(await codeOf(c.send(SCORE, { address: A }))).toBe('service_unavailable');

    await bus.start();
    await waitFor(
      async () =>
        await c.send(SCORE, { address: A }).then(
          (r) => r.score === 655,
          () => false,
        ),
    );
  });
});

async function nextStatus(nc: NatsConnection, type: Events): Promise<void> {
  for await (const status of nc.status()) if (status.type === type) return;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
