import { getAddress, type Address } from 'viem';
import type { NatsConnection } from 'nats';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { readTailFlows } from '@credit/chain/tail-flows-reader';
import { readWalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { ScoreResult } from '@credit/contracts/schemas/score';
import type { Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import type { CastRole } from '@credit/devnet/state-file';
import { connectNats } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import type { RunningService } from '@credit/rpc/start-service';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { countingRegistry, type CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import { heldNamesOf } from '@credit/test-world/held-names';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { startIndexedDevnet, type IndexedDevnet, type RunningIndexer } from '@credit/test-world/indexed-devnet';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { IdentityServiceAttestations } from '@credit/wallet/identity-attestations';
import { walletFeaturesWithNotes } from '../../src/features/wallet-features';
import { NATS_URL, REDIS_URL, startScoringService } from './scoring-service';

/** The wallet cache on a Redis (here: a logical database) of its own, apart from the indexer's queues. */
export const CACHE_REDIS_URL = Object.assign(new URL(REDIS_URL), { pathname: '/2' }).toString();
export const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const POPULATION = 120;

/**
 * The scoring service over a real NATS, Redis, Postgres and a seeded devnet (indexed first), with
 * the identity service beside it (the providers' stubs), and the model applied in the test itself
 * to the repository, the chains' snapshots and the identity service's attestations, to check every
 * reply against. The service's chains go through counting proxies, so cache hits and batch sizes
 * are measured in JSON-RPC requests. `scoringWorld()` starts it before the file's tests and stops
 * it after them; its fields are set once the file's `beforeAll` has run.
 */
export interface ScoringWorld {
  readonly prefix: string;
  world: IndexedDevnet;
  devnet: Devnet;
  database: TestDatabase;
  indexer: RunningIndexer;
  registry: ChainRegistry;
  /** The service's chains, each behind a proxy that counts its JSON-RPC requests. */
  proxies: CountingRegistry;
  service: RunningService;
  /** The identity service with the providers' stubs, under this suite's prefix. */
  identity: RunningIdentity;
  nc: NatsConnection;
  client: RpcClient;
  cast(role: CastRole): Address;
  population(from: number, to: number): Address[];
  /** The identity service again (after a test stopped it): reading the chains directly. */
  startIdentity(): Promise<RunningIdentity>;
  /** The model's input built in the test itself: the repository's rows, a direct read of every chain, the identity service's attestations. */
  expectedFeatures(addresses: readonly Address[]): Promise<Map<Address, WalletFeatures>>;
  /** The model applied in the test itself to `expectedFeatures`. */
  expectedScores(addresses: readonly Address[]): Promise<Map<Address, number | null>>;
  expectedScore(address: Address): Promise<number | null>;
  expectShape(result: ScoreResult, address: Address, score: number): void;
}

export function scoringWorld(): ScoringWorld {
  let direct: ChainClient[];
  const t = {
    prefix: uniquePrefix('scoring'),
    cast: (role: CastRole): Address => getAddress(t.devnet.state.cast[role]!.address),
    population: (from: number, to: number): Address[] => t.devnet.state.population.slice(from, to).map((m) => getAddress(m.address)),
    // on the chains directly: its name-service reads are not the scoring service's round trips
    startIdentity: () =>
      startIdentityService({
        natsUrl: NATS_URL,
        prefix: t.prefix,
        redisUrl: REDIS_URL,
        databaseUrl: t.database.url,
        registry: t.registry,
        cast: t.devnet.state.cast,
      }),

    async expectedFeatures(addresses: readonly Address[]): Promise<Map<Address, WalletFeatures>> {
      const snapshots = await Promise.all(direct.map((c) => readWalletSnapshot(c, addresses)));
      const asOfSeconds = Math.max(...snapshots.map((s) => Number(s.block.timestamp)));
      const attestations = await new IdentityServiceAttestations(t.client).attestationsOf(addresses);
      const out = new Map<Address, WalletFeatures>();
      const chainIds = snapshots.map((s) => s.chainId);
      const names = await heldNamesOf(t.database.url, t.registry, addresses);
      const repository = t.indexer.repository;
      for (const address of addresses) {
        const activity = await repository.activityAcrossChains(address);
        const lendingEvents = await repository.lendingEventsOf(chainIds, [address]);
        const tails = await Promise.all(
          direct.map(async (c) => {
            const cp = await repository.checkpoint(c.config.id);
            return readTailFlows(c, [address], cp!.indexedTo + 1n, snapshots.find((s) => s.chainId === c.config.id)!.block.number);
          }),
        );
        out.set(
          address,
          walletFeaturesWithNotes({
            address,
            activity,
            lendingEvents,
            balanceFlows: [...(await repository.balanceFlowsOf(chainIds, [address])), ...tails.flat()],
            interactions: await repository.interactionsOf(chainIds, [address]),
            snapshots,
            asOfSeconds,
            attestations: attestations.get(address)!,
            names: names.get(address) ?? [],
          }).features,
        );
      }
      return out;
    },

    async expectedScores(addresses: readonly Address[]): Promise<Map<Address, number | null>> {
      const features = await t.expectedFeatures(addresses);
      return new Map(addresses.map((a) => [a, hasActivity(features.get(a)!) ? scoreWallet(features.get(a)!).score : null]));
    },

    async expectedScore(address: Address): Promise<number | null> {
      return (await t.expectedScores([address])).get(address)!;
    },

    expectShape(result: ScoreResult, address: Address, score: number): void {
      expect(result).toMatchObject({
        address,
        score,
        decile: decileOf(score, ANDROMEDA_1_0.decileCutPoints),
        range: rangeOf(score),
        model_version: 'andromeda_1.0',
      });
      expect(Number.isNaN(Date.parse(result.timestamp))).toBe(false);
    },
  } as ScoringWorld;

  beforeAll(async () => {
    t.database = await createTestDatabase();
    t.world = await startIndexedDevnet({
      devnet: seededDevnetOptions({ seed: 'scoring-nats', anchorTimestamp: ANCHOR, populationSize: POPULATION }),
      databaseUrl: t.database.url,
      redisUrl: REDIS_URL,
    });
    ({ devnet: t.devnet, registry: t.registry, indexer: t.indexer } = t.world);
    direct = [...createChainClients(t.registry).values()];

    t.proxies = await countingRegistry(t.registry);
    t.identity = await t.startIdentity();
    t.service = await startScoringService(t.prefix, {
      HEALTH_PORT: '0',
      DATABASE_URL: t.database.url,
      REDIS_URL,
      CACHE_REDIS_URL,
      CHAINS: JSON.stringify(t.proxies.registry),
    });
    t.nc = await connectNats({ url: NATS_URL, name: 'scoring-test' });
    t.client = new RpcClient(t.nc, t.prefix);
  });

  afterAll(async () => {
    await t.nc?.close().catch(() => undefined);
    await t.service?.close().catch(() => undefined);
    await t.identity?.close().catch(() => undefined);
    await t.proxies?.close().catch(() => undefined);
    await t.world?.close();
    await t.database?.drop().catch(() => undefined);
    await deleteKeysWithPrefix(REDIS_URL, t.prefix).catch(() => undefined);
    await deleteKeysWithPrefix(CACHE_REDIS_URL, t.prefix).catch(() => undefined);
  });

  return t;
}
