import { parsePrometheusText, sampleSum, type Family } from '@credit/testing/prometheus-text';
import { NATS_URL, REDIS_URL, startGatewayProcess, startServiceProcess, stopAllApps, type AppProcess } from '../src/apps';
import { freePort, waitUntil } from '../src/ports';
import { startScoringWorld, type ScoringWorld } from '../src/scoring-world';
import { timedGet } from '../src/timed-http';

/**
 * Every app's probe port on one real stack (child processes: gateway, sandbox, scoring, reports,
 * identity, indexer over a seeded devnet, NATS, Redis, Postgres): after a mixed workload through
 * the gateway, each `/metrics` parses as Prometheus text, holds the shared families, and counts
 * what was sent; `/ready` follows what each app needs (a ready replica of every service behind the
 * gateway; the index caught up behind scoring), 503 while it is missing and 200 once it is back.
 */
jest.setTimeout(300_000);

let world: ScoringWorld;
let sandbox: AppProcess;
let gateway: AppProcess;
let gatewayProbe: string;
let key: string;
let freeKey: string;

beforeAll(async () => {
  world = await startScoringWorld({ natsUrl: NATS_URL, redisUrl: REDIS_URL, withReports: true });
  sandbox = await startServiceProcess('sandbox', { NATS_URL, NATS_SUBJECT_PREFIX: world.prefix });
  const healthPort = await freePort();
  gatewayProbe = `http://127.0.0.1:${healthPort}`;
  gateway = await startGatewayProcess({
    NATS_URL,
    NATS_SUBJECT_PREFIX: world.prefix,
    DATABASE_URL: world.database.url,
    HEALTH_PORT: String(healthPort),
    RATE_LIMIT_FREE_PER_MIN: '2',
  });
  key = await world.database.createKey('enterprise');
  freeKey = await world.database.createKey('free');
});

afterAll(async () => {
  await stopAllApps();
  await world?.close();
});

async function scrape(base: string): Promise<Map<string, Family>> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await res.text());
}

const status = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
const get = (path: string, withKey: string | undefined = key) => timedGet(`${gateway.url}${path}`, withKey, 20_000);
const waitReady = (what: string, url: string, expected: number) =>
  waitUntil(`${what} /ready ${expected}`, async () => (await status(`${url}/ready`)) === expected, 120_000, 250);

const REQUEST_FAMILIES = [
  'credit_requests_total',
  'credit_request_duration_seconds',
  'credit_requests_in_flight',
  'credit_requests_queued',
];

it('counts a mixed workload on every app’s /metrics, which parses as Prometheus text', async () => {
  await waitReady('gateway', gatewayProbe, 200);
  const before = { scoring: await scrape(world.scoring.url), sandbox: await scrape(sandbox.url) };
  const address = world.cast('healthy_borrower');
  const sent = [
    ...[1, 2, 3].map(() => get(`/api/v2/score/address/${address}`)),
    ...[1, 2].map(() => get(`/api/v2/sandbox/score/address/${address}`)),
    get('/api/v2/score/address/not-an-address'),
    get(`/api/v2/score/address/${address}`, 'sk_live_not_a_key'),
  ];
  const statuses = (await Promise.all(sent)).map((r) => r.status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 404, 401]);
  const limited = [];
  for (let i = 0; i < 3; i++) limited.push((await get('/users/me', freeKey)).status);
  expect(limited).toEqual([200, 200, 429]);

  const apps = {
    gateway: gatewayProbe,
    sandbox: sandbox.url,
    scoring: world.scoring.url,
    reports: world.reports!.url,
    identity: world.identity.url,
    indexer: world.indexer.url,
  };
  const scraped = Object.fromEntries(await Promise.all(Object.entries(apps).map(async ([app, url]) => [app, await scrape(url)] as const)));
  for (const [app, families] of Object.entries(scraped)) {
    // prom-client's process metrics, labelled with the app
    expect({ app, cpu: sampleSum(families, 'process_cpu_user_seconds_total', { service: app }) > 0 }).toEqual({ app, cpu: true });
  }
  for (const app of ['gateway', 'sandbox', 'scoring', 'reports', 'identity'] as const) {
    for (const family of REQUEST_FAMILIES)
      expect({ app, family, present: scraped[app]!.has(family) }).toEqual({ app, family, present: true });
    expect({ app, inFlight: sampleSum(scraped[app]!, 'credit_requests_in_flight') }).toEqual({ app, inFlight: 0 });
  }

  const gw = scraped.gateway!;
  const count = (operation: string, outcome: string) => sampleSum(gw, 'credit_requests_total', { operation, outcome });
  expect({
    scoreOk: count('scoreAddress', 'ok'),
    scoreClientError: count('scoreAddress', 'client_error'),
    sandboxOk: count('sandbox.scoreAddress', 'ok'),
    meOk: count('GET /users/me', 'ok'),
    meRefused: count('GET /users/me', 'client_error'),
    scoreTimed: sampleSum(gw, 'credit_request_duration_seconds', { operation: 'scoreAddress' }, 'credit_request_duration_seconds_count'),
    http429: sampleSum(gw, 'credit_http_429_total', { reason: 'rate_limited' }),
    cuRefused: sampleSum(gw, 'credit_cu_refused_total', { reason: 'rate_limited' }),
    publishRefused: sampleSum(gw, 'credit_nats_publish_refused_total'),
  }).toEqual({
    scoreOk: 3,
    scoreClientError: 2,
    sandboxOk: 2,
    meOk: 2,
    meRefused: 1,
    scoreTimed: 5,
    http429: 1,
    cuRefused: 1,
    publishRefused: 0,
  });
  for (const family of [
    'credit_x402_verifications_total',
    'credit_x402_settlements_total',
    'credit_ledger_outbox_depth',
    'credit_ledger_outbox_age_seconds',
  ])
    expect({ family, present: gw.has(family) }).toEqual({ family, present: true });
  // every CU charged is in the account's usage (read after the scrape: the usage call is free)
  const usage = (await get('/users/me/usage')).body as { used: number };
  expect(sampleSum(gw, 'credit_cu_charged_total', { operation: 'scoreAddress' })).toBe(usage.used);
  expect(usage.used).toBeGreaterThan(0);
  // one key-cache read per well-formed key (a malformed one is refused before any lookup)
  expect(sampleSum(gw, 'credit_cache_lookups_total', { cache: 'api_key' })).toBe(9);

  // the services count what the gateway forwarded (scoring's own warm-up requests came before `before`)
  const delta = (app: 'scoring' | 'sandbox', family: string, labels: Record<string, string>) =>
    sampleSum(scraped[app]!, family, labels) - sampleSum(before[app], family, labels);
  // one verdict read per score; a view read only for each verdict that missed
  const verdictMisses = delta('scoring', 'credit_cache_lookups_total', { cache: 'score_verdict', outcome: 'miss' });
  expect({
    scoring: delta('scoring', 'credit_requests_total', { operation: 'credit.score.address.v1', outcome: 'ok' }),
    sandbox: delta('sandbox', 'credit_requests_total', { operation: 'credit.sandbox.score.address.v1', outcome: 'ok' }),
    verdicts: delta('scoring', 'credit_cache_lookups_total', { cache: 'score_verdict' }),
    walletViews: delta('scoring', 'credit_cache_lookups_total', { cache: 'wallet_view' }),
  }).toEqual({ scoring: 3, sandbox: 2, verdicts: 3, walletViews: verdictMisses });

  // JSON-RPC calls per chain, from the services that read chains, and the indexer's progress
  for (const app of ['scoring', 'indexer'] as const) expect(sampleSum(scraped[app]!, 'credit_rpc_calls_total')).toBeGreaterThan(0);
  expect(scraped.scoring!.has('credit_rpc_errors_total')).toBe(true);
  const indexer = scraped.indexer!;
  const chains = indexer.get('credit_index_head_block')!.samples.map((s) => s.labels.chain!);
  expect(chains.length).toBeGreaterThan(0);
  for (const chain of chains) {
    const head = sampleSum(indexer, 'credit_index_head_block', { chain });
    const indexed = sampleSum(indexer, 'credit_indexed_block', { chain });
    expect({ chain, behindHead: indexed <= head, lag: sampleSum(indexer, 'credit_index_lag_seconds', { chain }) }).toEqual({
      chain,
      behindHead: true,
      lag: 0,
    });
  }
});

it('gateway /ready is 503 while no scoring replica runs, 200 once one is back', async () => {
  await waitReady('gateway', gatewayProbe, 200);
  await world.scoring.child.stop('SIGTERM');
  await waitReady('gateway', gatewayProbe, 503);
  const body = (await (await fetch(`${gatewayProbe}/ready`)).json()) as { failing: { name: string }[] };
  expect(body.failing.map((f) => f.name)).toEqual(['scoring']);
  expect(await status(`${gatewayProbe}/health`)).toBe(200);
  world.scoring = await world.scoring.restart();
  await waitReady('scoring', world.scoring.url, 200);
  await waitReady('gateway', gatewayProbe, 200);
});

it('scoring /ready is 503 while the index is behind the chain, 200 once the indexer has caught up', async () => {
  await world.indexer.child.stop('SIGKILL');
  // a few blocks an hour apart: beyond the confirmation depth and the allowed lag (INDEX_MAX_LAG_SECONDS, 600 s)
  for (const chain of world.devnet.chains.filter((c) => c.spec.role === 'scoring')) {
    await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x5', '0xe10'] }),
    });
  }
  await waitReady('scoring', world.scoring.url, 503);
  const body = (await (await fetch(`${world.scoring.url}/ready`)).json()) as { failing: { name: string; reason: string }[] };
  expect(body.failing).toEqual([{ name: 'index', reason: expect.stringContaining('behind its head') }]);
  await waitReady('gateway', gatewayProbe, 503);
  world.indexer = await world.indexer.restart();
  await waitReady('scoring', world.scoring.url, 200);
  await waitReady('gateway', gatewayProbe, 200);
  expect((await get(`/api/v2/score/address/${world.cast('healthy_borrower')}`)).status).toBe(200);
});
