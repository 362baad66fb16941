import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { connect, type NatsConnection } from 'nats';
import { getAddress, type Address } from 'viem';
import { startProviderStubs, type ProviderStubs } from '@credit/provider-stubs/provider-stubs';
import { stubProviderEnv } from '@credit/provider-stubs/provider-env';
import { RpcClient } from '@credit/rpc/rpc-client';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { freePort } from '@credit/testing/private-nats';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { identityConfig } from '../src/config';
import { parsePrometheusText, sampleSum } from '@credit/testing/prometheus-text';
import { IdentityModule, IdentityResources } from '../src/identity.module';

/**
 * The identity service's `/metrics` on its health port: the service booted as main.ts boots it
 * (IdentityModule + its readiness checks) on the real NATS and Redis, Human Passport, POAP and Neynar
 * answered by the provider stubs, Lens by a server answering HTML (a failing source); after a few
 * requests the counters are scraped over HTTP and compared with the scrape before them.
 */
jest.setTimeout(30_000);

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** `/ready` asks Postgres for `SELECT 1` only (no ENS chain here: the name index is never read). */
const DATABASE_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const KNOWN: Address = getAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045');
const SOME: Address = getAddress('0x2c1e111d7c3adc823b5fa3af3f07eb62831c3c5e');
const UNKNOWN: Address = getAddress('0x000000000000000000000000000000000000dead');
/** A chain without ENS (no ENS source); its RPC endpoint is never called for address lookups. */
const CHAINS = [
  { id: 31337, name: 'no-ens', rpcUrl: 'http://127.0.0.1:9', nativeSymbol: 'ETH', nativePriceFeed: getAddress(`0x${'11'.repeat(20)}`) },
];

const prefix = uniquePrefix('identitymetrics');
let stubs: ProviderStubs;
let lensDown: Server;
let healthPort: number;
let identity: RunningService;
let nc: NatsConnection;
let client: RpcClient;

const scrape = (path = '/metrics') => fetch(`http://127.0.0.1:${healthPort}${path}`);

/** What the scrape says about the identity families: per source [found, nothing, failed], and the cache's hits and misses. */
async function counts(): Promise<{ sources: Record<string, number[]>; hit: number; miss: number; requests: number }> {
  const res = await scrape();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  const families = parsePrometheusText(await res.text());
  const sources = Object.fromEntries(
    ['passport', 'poap', 'farcaster', 'lens'].map((source) => [
      source,
      ['found', 'nothing', 'failed'].map((outcome) => sampleSum(families, 'credit_identity_source_lookups_total', { source, outcome })),
    ]),
  );
  return {
    sources,
    hit: sampleSum(families, 'credit_cache_lookups_total', { cache: 'identity', outcome: 'hit' }),
    miss: sampleSum(families, 'credit_cache_lookups_total', { cache: 'identity', outcome: 'miss' }),
    requests: sampleSum(families, 'credit_requests_total', { service: 'identity' }),
  };
}

beforeAll(async () => {
  stubs = await startProviderStubs({
    [KNOWN]: {
      passport: { score: '33.53800', stamps: ['Ens'] },
      poaps: [{ name: 'Devcon 7', date: '2024-11-12' }],
      farcaster: 'vitalik.eth',
    },
    [SOME]: { farcaster: 'bridger' },
  });
  lensDown = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'));
  await new Promise<void>((resolve) => lensDown.listen(0, '127.0.0.1', resolve));
  healthPort = await freePort();
  const config = identityConfig({
    ...stubProviderEnv(stubs),
    LENS_API_URL: `http://127.0.0.1:${(lensDown.address() as AddressInfo).port}/graphql`,
    NATS_URL,
    NATS_SUBJECT_PREFIX: prefix,
    REDIS_URL,
    DATABASE_URL,
    HEALTH_PORT: String(healthPort),
    CHAINS: JSON.stringify(CHAINS),
  });
  identity = await startService(IdentityModule.forRoot(config), {
    service: 'identity',
    natsUrl: NATS_URL,
    subjectPrefix: prefix,
    healthPort: config.HEALTH_PORT,
    readiness: (app) => app.get(IdentityResources).readinessChecks(),
    silent: true,
  });
  nc = await connect({ servers: NATS_URL });
  client = new RpcClient(nc, prefix);
});

afterAll(async () => {
  client?.close();
  await nc?.close();
  await identity?.close();
  lensDown?.closeAllConnections();
  lensDown?.close();
  await stubs?.close();
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
});

it('counts every lookup per source and outcome, the cache reads and the requests, on GET /metrics', async () => {
  const before = await counts();

  // a miss: every provider has KNOWN but Lens, which answers HTML (failed)
  const known = await client.send('credit.identity.attestations.v1', { address: KNOWN });
  expect(known).toMatchObject({ social: { farcaster: 'vitalik.eth' }, poaps: { count: 1 }, cached: false });
  expect(known.social?.lens).toBeUndefined();

  // KNOWN from the cache (its incomplete answer is kept 30 s); SOME asked: only Neynar knows it
  const many = await client.send('credit.identity.attestations-many.v1', { addresses: [KNOWN, SOME] });
  expect(many.results.map((r) => [r.address, r.attestations?.cached, r.complete])).toEqual([
    [KNOWN, true, false],
    [SOME, false, false],
  ]);

  // nobody knows UNKNOWN and Lens failed: 503, and every source's answer is still counted
  await expect(client.send('credit.identity.attestations.v1', { address: UNKNOWN })).rejects.toMatchObject({
    code: 'service_unavailable',
  });

  const after = await counts();
  const added = (source: string) => after.sources[source]!.map((n, i) => n - before.sources[source]![i]!);
  expect(Object.fromEntries(['passport', 'poap', 'farcaster', 'lens'].map((s) => [s, added(s)]))).toEqual({
    passport: [1, 2, 0],
    poap: [1, 2, 0],
    farcaster: [2, 1, 0],
    lens: [0, 0, 3],
  });
  expect([after.hit - before.hit, after.miss - before.miss]).toEqual([1, 3]);
  expect(after.requests - before.requests).toBe(3);
});

it('answers /health and /ready (and their old names /healthz and /readyz) next to /metrics', async () => {
  for (const path of ['/health', '/ready', '/healthz', '/readyz']) expect((await scrape(path)).status).toBe(200);
});
