import { uniquePrefix } from '@credit/testing/unique-prefix';
import { NATS_URL, startGatewayProcess, startServiceProcess, type AppProcess, stopAllApps } from '../src/apps';
import { VITALIK } from '../src/fuzz-values';
import { runHttpFuzz } from '../src/http-fuzz-run';
import { createKeyedDatabase, type KeyedDatabase } from '../src/keyed-database';
import { createPrng, seedFromEnv } from '../src/prng';

/**
 * Every HTTP route of the gateway (the operation table in both variants, /health, /openapi.json,
 * /docs and its assets, /users/me), unknown paths and wrong methods, with generated paths, address
 * lists, query strings, bodies and Authorization headers; a valid key, invalid keys and none. The
 * gateway and the sandbox run as child processes, so a crash shows as an exit.
 * Replay a run with FUZZ_SEED=<seed>; FUZZ_REQUESTS sets the count (default 12,000).
 */
jest.setTimeout(300_000);

const COUNT = Number(process.env.FUZZ_REQUESTS ?? 12_000);
let database: KeyedDatabase;
let gateway: AppProcess;
let sandbox: AppProcess;
let key: string;

beforeAll(async () => {
  const prefix = uniquePrefix('fuzz');
  database = await createKeyedDatabase();
  key = await database.createKey('enterprise');
  sandbox = await startServiceProcess('sandbox', { NATS_URL, NATS_SUBJECT_PREFIX: prefix });
  gateway = await startGatewayProcess({ NATS_URL, NATS_SUBJECT_PREFIX: prefix, DATABASE_URL: database.url, LOG_LEVEL: 'error' });
});

afterAll(async () => {
  await stopAllApps();
  await database?.drop();
});

it(`answers ${COUNT} generated requests with documented statuses in the error envelope of docs/API.md §7, never a 500 or a hang, and stays up`, async () => {
  const seed = seedFromEnv();
  console.log(`HTTP fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);
  const figures = await runHttpFuzz({ baseUrl: gateway.url, key, prng: createPrng(seed), count: COUNT, concurrency: 32 });
  const { problems, ...counts } = figures;
  console.log(`HTTP fuzz figures: ${JSON.stringify(counts, null, 1)}\nproblems: ${problems.length}`);

  expect(figures.requests).toBeGreaterThanOrEqual(Math.min(COUNT, 10_000));
  expect({
    seed,
    problems: problems.length,
    first: problems.slice(0, 15),
    gatewayLog: problems.length ? gateway.child.output().slice(-3000) : '',
  }).toEqual({ seed, problems: 0, first: [], gatewayLog: '' });
  expect(gateway.child.exit).toBeUndefined();
  expect(sandbox.child.exit).toBeUndefined();
  const after = await fetch(`${gateway.url}/api/v2/sandbox/score/address/${VITALIK}`, { headers: { authorization: `Bearer ${key}` } });
  expect(after.status).toBe(200);
});
