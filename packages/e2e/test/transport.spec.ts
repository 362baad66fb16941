import { connectNats } from '@credit/rpc/nats-connection';
import { prefixed } from '@credit/rpc/subject-prefix';
import type { NatsConnection } from 'nats';
import { http, NATS_URL, startTestStack, type TestStack } from '@credit/test-stack/test-stack';

const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const PATH = `/api/v2/sandbox/score/address/${VITALIK}`;
// Long enough that NATS's "no responders" reaches a gateway on a loaded CI machine before it
// (CI once saw 504 for a subject nobody serves at 400 ms), short enough for the hung-service case.
const TIMEOUT_MS = 2_000;

let stack: TestStack;
let key: string;
let nc: NatsConnection;

beforeAll(async () => {
  stack = await startTestStack({ sandboxReplicas: 0, env: { RPC_TIMEOUT_MS: String(TIMEOUT_MS) } });
  key = (await stack.createKey()).key;
  nc = await connectNats({ url: NATS_URL, name: 'transport-test' });
});
afterAll(async () => {
  await nc.drain();
  await stack.close();
});

describe('the NATS hop', () => {
  it('no service subscribed → 503 detail at once', async () => {
    const res = await http(stack.url, PATH, { key });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.stringMatching(/sandbox service is unavailable/) });
  });

  it('a production route whose service is not running → 503 detail', async () => {
    const res = await http(stack.url, `/api/v2/score/address/${VITALIK}`, { key });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.stringMatching(/scoring service is unavailable/) });
  });

  it('a service that never answers → 504 after the timeout, then recovery when a replica returns', async () => {
    const hung = nc.subscribe(prefixed(stack.prefix, 'credit.sandbox.score.address.v1'), { queue: 'sandbox' });
    await nc.flush();
    const res = await http(stack.url, PATH, { key });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ detail: expect.stringMatching(new RegExp(`did not answer within ${TIMEOUT_MS} ms`)) });
    hung.unsubscribe();
    await nc.flush();

    await stack.startSandbox();
    const back = await http(stack.url, PATH, { key });
    expect(back.status).toBe(200);
    expect(back.body.address).toBe(VITALIK);
  });

  it('two replicas in the queue group share the load', async () => {
    while (stack.sandboxes.length < 2) await stack.startSandbox();
    const counts = () => stack.sandboxes.map((s) => (s.app.unwrap() as NatsConnection).stats().inMsgs);
    const before = counts();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        http(stack.url, `/api/v2/sandbox/score/address/0x${(i + 1).toString(16).padStart(40, '0')}`, { key }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = counts();
    const handled = after.map((n, i) => n - before[i]!);
    expect(handled.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(200);
    for (const n of handled) expect(n).toBeGreaterThan(20);
  });

  it('a replica that stops leaves the other serving', async () => {
    const [first] = stack.sandboxes.splice(0, 1);
    await first!.close();
    const res = await http(stack.url, PATH, { key });
    expect(res.status).toBe(200);
  });
});
