import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { createPrismaClient } from '@credit/db/prisma-client';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { blockList, type BlockHeader } from '@credit/devnet/block-list';
import { rpc } from '@credit/devnet/json-rpc';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import type { CastRole } from '@credit/devnet/state-file';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { scoringConfig } from '@credit/scoring/config';
import { ScoringModule } from '@credit/scoring/scoring.module';
import { startDevnetIndexer, waitUntilIndexed } from '@credit/test-world/indexed-devnet';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { gatewayConfig } from '@credit/gateway/config';
import { startGateway, type RunningGateway } from '@credit/gateway/create-gateway';
import { http, NATS_URL } from '@credit/test-stack/test-stack';

/**
 * Day two, end to end: the whole stack (devnet, indexer, scoring, gateway) is started on a saved
 * world, the cast is scored over HTTP, everything is stopped, started again from the saved world,
 * and scored again: the same bodies, a chain clock that never went back, an index that resumed.
 * Then an indexer killed in the middle of a backfill: 503 naming the chain while it is behind,
 * the right score once it has caught up, and nothing wrong cached in between.
 */
jest.setTimeout(300_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const CONFIRMATIONS = 2;
const ROLES: CastRole[] = ['healthy_borrower', 'liquidated', 'multichain', 'ens_holder', 'new_wallet'];

interface Running {
  devnet: Devnet;
  registry: ChainRegistry;
  indexer: Awaited<ReturnType<typeof startDevnetIndexer>>;
  identity: RunningIdentity;
  scoring: RunningService;
  gateway: RunningGateway;
}

describe('a stack stopped and started again', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'restart-world-'));
  // the world of `pnpm start`, smaller, on a fixed clock so that ages do not move between runs
  const world = { ...seededDevnetOptions({ seed: 'day-two', anchorTimestamp: ANCHOR, populationSize: 12 }), clockAt: ANCHOR, stateDir };
  const prefix = uniquePrefix('day2');
  let database: TestDatabase;
  let key: string;
  let stack: Running | undefined;
  const extraDatabases: TestDatabase[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = createPrismaClient(database.url);
    const { account } = await new AccountRepository(db).findOrCreateByEmail(`${uniquePrefix('u')}@example.com`, 'enterprise');
    ({ key } = await new ApiKeyRepository(db).create({ accountId: account.id, name: 'day two' }));
    await db.$disconnect();
  });

  afterAll(async () => {
    await stop().catch(() => undefined);
    await deleteKeysWithPrefix(REDIS_URL, prefix).catch(() => undefined);
    await Promise.all([database, ...extraDatabases].map((d) => d?.drop().catch(() => undefined)));
    rmSync(stateDir, { recursive: true, force: true });
  });

  async function startScoring(registry: ChainRegistry, databaseUrl: string): Promise<RunningService> {
    const config = scoringConfig({
      NATS_URL,
      NATS_SUBJECT_PREFIX: prefix,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      HEALTH_PORT: '0',
      CHAINS: JSON.stringify(registry),
    });
    return startService(ScoringModule.forRoot(config), {
      service: 'scoring',
      natsUrl: NATS_URL,
      subjectPrefix: prefix,
      healthPort: 0,
      silent: true,
    });
  }

  /** What `pnpm start` does: the devnet (saved after its start), the indexer, identity (with the stubs), scoring, the gateway. */
  async function start(): Promise<Running> {
    const devnet = await startDevnet(world);
    await devnet.save();
    const registry = registryFromDevnetState(devnet.state, { chainIds: [1, 8453] });
    const indexer = await startDevnetIndexer({
      registry,
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      confirmations: String(CONFIRMATIONS),
    });
    const identity = await startIdentityService({
      natsUrl: NATS_URL,
      prefix,
      redisUrl: REDIS_URL,
      databaseUrl: database.url,
      registry,
      cast: devnet.state.cast,
    });
    const scoring = await startScoring(registry, database.url);
    const gateway = await startGateway(
      gatewayConfig({ HOST: '127.0.0.1', PORT: '0', NATS_URL, NATS_SUBJECT_PREFIX: prefix, DATABASE_URL: database.url }),
      { silent: true },
    );
    stack = { devnet, registry, indexer, identity, scoring, gateway };
    return stack;
  }

  async function stop(): Promise<void> {
    if (!stack) return;
    const { devnet, indexer, identity, scoring, gateway } = stack;
    stack = undefined;
    await gateway.close();
    await scoring.close();
    await identity.close();
    await indexer.close();
    await devnet.stop();
  }

  async function heads(devnet: Devnet): Promise<Map<number, bigint>> {
    const targets = new Map<number, bigint>();
    for (const id of [1, 8453]) {
      const c = devnet.chains.find((x) => x.spec.id === id)!;
      targets.set(id, BigInt(await rpc<string>(c.rpcUrl, 'eth_blockNumber', [])) - BigInt(CONFIRMATIONS));
    }
    return targets;
  }

  const blocks = (devnet: Devnet, chainId: number): Promise<BlockHeader[]> =>
    blockList(devnet.chains.find((c) => c.spec.id === chainId)!.rpcUrl);

  const castOf = (devnet: Devnet, role: CastRole) => getAddress(devnet.state.cast[role]!.address);
  const withoutTimestamp = (body: unknown) =>
    JSON.parse(JSON.stringify(body, (k, v: unknown) => (k === 'timestamp' ? undefined : v))) as unknown;

  /** The README's production score calls for the cast, as bodies without their timestamps. */
  async function scoreTheCast(running: Running): Promise<Record<string, { status: number; body: unknown }>> {
    const base = running.gateway.url;
    const h = castOf(running.devnet, 'healthy_borrower');
    const l = castOf(running.devnet, 'liquidated');
    const paths = [
      ...ROLES.map((role) => `/api/v2/score/address/${castOf(running.devnet, role)}?include_factors=true`),
      '/api/v2/score/address/ada.eth',
      `/api/v2/score/?address=${h},${l}`,
      `/api/v2/score/batch/?address=${h},${l},ada.eth`,
      // the history, every past day rebuilt from the index afresh after the restart (the cache is emptied)
      `/api/v2/score/address/${h}/history?days=365`,
      `/api/v2/score/address/${l}/history?days=365`,
    ];
    const out: Record<string, { status: number; body: unknown }> = {};
    for (const path of paths) {
      const res = await http(base, path, { key });
      out[path] = { status: res.status, body: withoutTimestamp(res.body) };
    }
    const boosted = await http(base, `/api/v2/score/address/${l}`, { key, method: 'POST', body: { total_asset_usd: 50_000 } });
    out[`POST ${l}`] = { status: boosted.status, body: withoutTimestamp(boosted.body) };
    return out;
  }

  let firstDay: Record<string, { status: number; body: unknown }>;
  let firstBlocks: BlockHeader[];

  it('scores the cast exactly as before after a stop and a start from the saved world, and resumes the index', async () => {
    let running = await start();
    expect(running.devnet.reused).toBe(false);
    await waitUntilIndexed(running.indexer.indexer, await heads(running.devnet), 120_000);
    firstDay = await scoreTheCast(running);
    for (const [path, result] of Object.entries(firstDay)) expect({ path, status: result.status }).toEqual({ path, status: 200 });
    firstBlocks = await blocks(running.devnet, 1);
    const ranges = await running.indexer.indexer.repository.indexedBlockRefs(1);
    await stop();
    await deleteKeysWithPrefix(REDIS_URL, prefix); // the second day computes every score afresh

    running = await start();
    expect(running.devnet.reused).toBe(true);
    // the index resumed: nothing was deleted, every range indexed before is still there
    expect(Object.fromEntries(running.indexer.indexer.reconciliations)).toEqual({
      1: { outcome: 'resumed' },
      8453: { outcome: 'resumed' },
    });
    expect((await running.indexer.indexer.repository.indexedBlockRefs(1)).slice(-ranges.length)).toEqual(ranges);
    // the chain's clock never went back: the saved blocks are the same, the new ones later
    const secondBlocks = await blocks(running.devnet, 1);
    expect(secondBlocks.slice(0, firstBlocks.length)).toEqual(firstBlocks);
    expect(secondBlocks.length).toBeGreaterThan(firstBlocks.length);
    for (const b of secondBlocks.slice(firstBlocks.length))
      expect(b.timestamp).toBeGreaterThan(firstBlocks[firstBlocks.length - 1]!.timestamp);

    await waitUntilIndexed(running.indexer.indexer, await heads(running.devnet), 120_000);
    expect(await scoreTheCast(running)).toEqual(firstDay);
  });

  it('answers 503 naming the chain while a killed indexer is mid-backfill, then the right score once it has caught up', async () => {
    const running = stack!;
    // a new, empty index: the scoring service reads it from now on
    const fresh = await createTestDatabase();
    extraDatabases.push(fresh);
    await running.scoring.close();
    running.scoring = await startScoring(running.registry, fresh.url);
    await deleteKeysWithPrefix(REDIS_URL, prefix);

    const healthy = `/api/v2/score/address/${castOf(running.devnet, 'healthy_borrower')}?include_factors=true`;
    const backfill = await startDevnetIndexer({
      registry: running.registry,
      databaseUrl: fresh.url,
      redisUrl: REDIS_URL,
      confirmations: String(CONFIRMATIONS),
      env: { RANGE_SIZE: '10', CONCURRENCY: '1' }, // a backfill of many small ranges, to be killed in the middle
    });
    for (;;) {
      const cp = await backfill.indexer.repository.checkpoint(1);
      if (cp?.indexedToAt) break; // the first range is in; the backfill is not done
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await backfill.indexer.kill();
    const target = (await heads(running.devnet)).get(1)!;
    expect((await backfill.indexer.repository.checkpoint(1))!.indexedTo).toBeLessThan(target);

    for (let i = 0; i < 2; i += 1) {
      const refused = await http(running.gateway.url, healthy, { key });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({
        detail: expect.stringMatching(/chain (1|8453) is (still being built|\d+ blocks \(\d+ days\) behind its head)/),
      });
    }
    await backfill.close();

    const resumed = await startDevnetIndexer({
      registry: running.registry,
      databaseUrl: fresh.url,
      redisUrl: REDIS_URL,
      confirmations: String(CONFIRMATIONS),
    });
    try {
      await waitUntilIndexed(resumed.indexer, await heads(running.devnet), 120_000);
      const res = await http(running.gateway.url, healthy, { key });
      expect({ status: res.status, body: withoutTimestamp(res.body) }).toEqual(firstDay[healthy]);
    } finally {
      await resumed.close();
    }
  });
});
