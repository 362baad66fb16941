import { SUBJECTS } from '@credit/contracts/subjects';
import { NATS_URL, startGatewayProcess, type AppProcess, stopAllApps } from '../src/apps';
import { sleep, waitUntil } from '../src/ports';
import { startPrivateRedis, type PrivateDaemon } from '../src/private-daemons';
import { countRedisKeys } from '../src/redis-probe';
import { startScoringWorld, type ScoringWorld } from '../src/scoring-world';
import { timedGet } from '../src/timed-http';

/**
 * Redis stopped under scoring and reports (their shared wallet cache) and the indexer (its BullMQ
 * queues), all child processes on a private redis-server: scores and reports are still answered (a
 * cache miss is read afresh, docs/ARCHITECTURE.md), and once Redis is back the cache is written
 * again, with no restart.
 */
jest.setTimeout(180_000);

const DEADLINE_MS = SUBJECTS['credit.score.address.v1'].timeoutMs + 2_000;
let redis: PrivateDaemon;
let world: ScoringWorld;
let gateway: AppProcess;
let key: string;

beforeAll(async () => {
  redis = await startPrivateRedis();
  world = await startScoringWorld({ natsUrl: NATS_URL, redisUrl: redis.url, withReports: true });
  key = await world.database.createKey('enterprise');
  gateway = await startGatewayProcess({ NATS_URL, NATS_SUBJECT_PREFIX: world.prefix, DATABASE_URL: world.database.url });
});

afterAll(async () => {
  await world?.close();
  await stopAllApps();
});

it('Redis down → scores and reports still 200 within the deadline; Redis back → the cache is written again; nothing restarted', async () => {
  const score = (address: string) => timedGet(`${gateway.url}/api/v2/score/address/${address}`, key, DEADLINE_MS + 5_000);
  const report = (address: string) => timedGet(`${gateway.url}/api/v2/report/address/${address}`, key, DEADLINE_MS + 5_000);
  const cached = world.cast('healthy_borrower');
  const [first, second, third] = world.devnet.state.population.map((p) => p.address);
  expect((await score(cached)).status).toBe(200);
  expect(await countRedisKeys(redis.url, `${world.prefix}:*`)).toBeGreaterThan(0);

  await redis.stop();
  const during = [await score(cached), await score(first!)];
  await sleep(3_000); // long enough for the indexer's queues to notice
  during.push(await score(world.cast('liquidated')), await report(cached), await report(world.cast('multichain')));
  console.log(`Redis down: ${JSON.stringify(during.map((r) => ({ status: r.status, ms: r.ms })))}`);
  for (const r of during) {
    expect(r.status).toBe(200);
    expect(r.ms).toBeLessThanOrEqual(DEADLINE_MS);
  }

  await redis.start(); // empty: nothing is kept on disk
  await waitUntil(
    'a score cached again after Redis is back',
    async () => {
      expect((await score(second!)).status).toBe(200);
      return (await countRedisKeys(redis.url, `${world.prefix}:wallet:*`)) > 0;
    },
    30_000,
    500,
  );
  expect((await score(third!)).status).toBe(200);
  expect(world.scoring.child.exit).toBeUndefined();
  expect(world.reports!.child.exit).toBeUndefined();
  console.log(
    `indexer after the Redis outage: ${world.indexer.child.exit ? `exited ${JSON.stringify(world.indexer.child.exit)}` : 'running'}`,
  );
  expect(world.indexer.child.exit).toBeUndefined();
});
