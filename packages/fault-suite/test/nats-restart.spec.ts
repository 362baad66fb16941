import { SUBJECTS } from '@credit/contracts/subjects';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startGatewayProcess, startServiceProcess, type AppProcess, stopAllApps } from '../src/apps';
import { VITALIK } from '../src/fuzz-values';
import { createKeyedDatabase, type KeyedDatabase } from '../src/keyed-database';
import { sleep, waitUntil } from '../src/ports';
import { startPrivateNats, type PrivateNats } from '@credit/testing/private-nats';
import { timedGet } from '../src/timed-http';

/**
 * NATS killed and started again on the same port under a running gateway and sandbox (child
 * processes on a private nats-server): while it is down every request ends with 503 at once in
 * the error envelope of docs/API.md §7 within the subject's deadline; once it is back, requests
 * succeed again without restarting any app.
 */
jest.setTimeout(120_000);

const DEADLINE_MS = SUBJECTS['credit.sandbox.score.address.v1'].timeoutMs + 2_000;
let nats: PrivateNats;
let database: KeyedDatabase;
let gateway: AppProcess;
let sandbox: AppProcess;
let key: string;

beforeAll(async () => {
  nats = await startPrivateNats();
  database = await createKeyedDatabase();
  key = await database.createKey();
  const prefix = uniquePrefix('natsdown');
  sandbox = await startServiceProcess('sandbox', { NATS_URL: nats.url, NATS_SUBJECT_PREFIX: prefix });
  gateway = await startGatewayProcess({ NATS_URL: nats.url, NATS_SUBJECT_PREFIX: prefix, DATABASE_URL: database.url });
});

afterAll(async () => {
  await stopAllApps();
  await nats?.stop();
  await database?.drop();
});

it('NATS down → 503 {detail} within the deadline; NATS back on the same port → 200 again, no app restarted', async () => {
  const score = () => timedGet(`${gateway.url}/api/v2/sandbox/score/address/${VITALIK}`, key, DEADLINE_MS + 5_000);
  expect((await score()).status).toBe(200);

  await nats.stop();
  const during = [];
  for (let i = 0; i < 10; i++) {
    during.push(await score());
    await sleep(200);
  }
  console.log(`NATS down: ${JSON.stringify(during.map((r) => ({ status: r.status, ms: r.ms })))}`);
  // Even a request published in the moment before the client notices the loss: the client fails
  // what is in flight when the connection drops, and refuses the rest while it is down.
  for (const r of during) {
    expect(r.status).toBe(503);
    expect(Object.keys(r.body as object)).toEqual(['detail']);
    expect(r.ms).toBeLessThanOrEqual(DEADLINE_MS);
  }

  await nats.start();
  const restarted = Date.now();
  await waitUntil('a 200 after NATS is back', async () => (await score()).status === 200, 30_000, 250);
  console.log(`NATS back: first 200 after ${Date.now() - restarted} ms`);
  expect(gateway.child.exit).toBeUndefined();
  expect(sandbox.child.exit).toBeUndefined();
  expect((await timedGet(`${gateway.url}/health`, undefined, 5_000)).status).toBe(200);
});
