import { getAddress, type Address } from 'viem';
import { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import type { ChainRegistry } from '@credit/chain/chain-config';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { readTailFlows } from '@credit/chain/tail-flows-reader';
import { readWalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import { DomainError } from '@credit/contracts/errors';
import { FACTOR_LABELS, type ScoreResult } from '@credit/contracts/schemas/score';
import type { Devnet } from '@credit/devnet/devnet';
import { rpc as devnetRpc } from '@credit/devnet/json-rpc';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import type { CastRole } from '@credit/devnet/state-file';
import { connectNats } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import { startService, type RunningService } from '@credit/rpc/start-service';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { byPointsLost } from '@credit/score-model/andromeda/factors';
import { ANDROMEDA_1_0 } from '@credit/score-model/andromeda/model-table';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { enhancedScore } from '@credit/score-model/boost';
import { decileOf } from '@credit/score-model/deciles';
import { rangeOf } from '@credit/score-model/score-bands';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { codeOf } from '@credit/testing/domain-errors';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { IdentityServiceAttestations } from '@credit/wallet/identity-attestations';
import { scoringConfig } from '../src/config';
import { factorDescription } from '../src/domain/replies';
import { heldNamesOf } from '@credit/test-world/held-names';
import { walletFeatures } from '../src/features/wallet-features';
import { ScoringModule } from '../src/scoring.module';
import { countingRegistry, type CountingRegistry } from '@credit/test-world/counting-rpc-proxy';
import { startIndexedDevnet, type IndexedDevnet, type RunningIndexer } from '@credit/test-world/indexed-devnet';

/**
 * The scoring service over a real NATS, Redis, Postgres and a seeded devnet (indexed first), with
 * the identity service beside it (the providers' stubs): every reply is checked against the model
 * applied independently to the repository, the chains' snapshots and the identity service's
 * attestations; the service's chains go through counting proxies, so cache hits and batch sizes are
 * measured in JSON-RPC requests.
 */
jest.setTimeout(180_000);

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The wallet cache on a Redis (here: a logical database) of its own, apart from the indexer's queues. */
const CACHE_REDIS_URL = Object.assign(new URL(REDIS_URL), { pathname: '/2' }).toString();
const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const POPULATION = 120;

let world: IndexedDevnet;
let devnet: Devnet;
let database: TestDatabase;
let indexer: RunningIndexer;
let registry: ChainRegistry;
let direct: ChainClient[];
let proxies: CountingRegistry;
let service: RunningService;
let identity: RunningIdentity;
let nc: NatsConnection;
let client: RpcClient;
const prefix = uniquePrefix('scoring');

const cast = (role: CastRole): Address => getAddress(devnet.state.cast[role]!.address);
const population = (from: number, to: number): Address[] => devnet.state.population.slice(from, to).map((m) => getAddress(m.address));

/** The model's input built in the test itself: the repository's rows, a direct read of every chain, the identity service's attestations. */
async function expectedFeatures(addresses: readonly Address[]): Promise<Map<Address, WalletFeatures>> {
  const snapshots = await Promise.all(direct.map((c) => readWalletSnapshot(c, addresses)));
  const asOfSeconds = Math.max(...snapshots.map((s) => Number(s.block.timestamp)));
  const attestations = await new IdentityServiceAttestations(client).attestationsOf(addresses);
  const out = new Map<Address, WalletFeatures>();
  const chainIds = snapshots.map((s) => s.chainId);
  const names = await heldNamesOf(database.url, registry, addresses);
  for (const address of addresses) {
    const activity = await indexer.repository.activityAcrossChains(address);
    const lendingEvents = await indexer.repository.lendingEventsOf(chainIds, [address]);
    const tails = await Promise.all(
      direct.map(async (c) => {
        const cp = await indexer.repository.checkpoint(c.config.id);
        return readTailFlows(c, [address], cp!.indexedTo + 1n, snapshots.find((s) => s.chainId === c.config.id)!.block.number);
      }),
    );
    out.set(
      address,
      walletFeatures({
        address,
        activity,
        lendingEvents,
        balanceFlows: [...(await indexer.repository.balanceFlowsOf(chainIds, [address])), ...tails.flat()],
        interactions: await indexer.repository.interactionsOf(chainIds, [address]),
        snapshots,
        asOfSeconds,
        attestations: attestations.get(address)!,
        names: names.get(address) ?? [],
      }),
    );
  }
  return out;
}

/** The model applied in the test itself to `expectedFeatures`. */
async function expectedScores(addresses: readonly Address[]): Promise<Map<Address, number | null>> {
  const features = await expectedFeatures(addresses);
  return new Map(addresses.map((a) => [a, hasActivity(features.get(a)!) ? scoreWallet(features.get(a)!).score : null]));
}

/** The identity service with the providers' stubs, under this suite's prefix, reading the chains directly. */
const startIdentity = () =>
  startIdentityService({ natsUrl: NATS_URL, prefix, redisUrl: REDIS_URL, databaseUrl: database.url, registry, cast: devnet.state.cast });

async function expectedScore(address: Address): Promise<number | null> {
  return (await expectedScores([address])).get(address)!;
}

function expectShape(result: ScoreResult, address: Address, score: number): void {
  expect(result).toMatchObject({
    address,
    score,
    decile: decileOf(score, ANDROMEDA_1_0.decileCutPoints),
    range: rangeOf(score),
    model_version: 'andromeda_1.0',
  });
  expect(Number.isNaN(Date.parse(result.timestamp))).toBe(false);
}

beforeAll(async () => {
  database = await createTestDatabase();
  world = await startIndexedDevnet({
    devnet: seededDevnetOptions({ seed: 'scoring-nats', anchorTimestamp: ANCHOR, populationSize: POPULATION }),
    databaseUrl: database.url,
    redisUrl: REDIS_URL,
  });
  ({ devnet, registry, indexer } = world);
  direct = [...createChainClients(registry).values()];

  proxies = await countingRegistry(registry);
  // on the chains directly: its name-service reads are not the scoring service's round trips
  identity = await startIdentity();
  const config = scoringConfig({
    NATS_URL,
    NATS_SUBJECT_PREFIX: prefix,
    HEALTH_PORT: '0',
    DATABASE_URL: database.url,
    REDIS_URL,
    CACHE_REDIS_URL,
    CHAINS: JSON.stringify(proxies.registry),
  });
  service = await startService(ScoringModule.forRoot(config), {
    service: 'scoring',
    natsUrl: NATS_URL,
    subjectPrefix: prefix,
    healthPort: 0,
    silent: true,
  });
  nc = await connectNats({ url: NATS_URL, name: 'scoring-test' });
  client = new RpcClient(nc, prefix);
});

afterAll(async () => {
  await nc?.close().catch(() => undefined);
  await service?.close().catch(() => undefined);
  await identity?.close().catch(() => undefined);
  await proxies?.close().catch(() => undefined);
  await world?.close();
  await database?.drop().catch(() => undefined);
  await deleteKeysWithPrefix(REDIS_URL, prefix).catch(() => undefined);
  await deleteKeysWithPrefix(CACHE_REDIS_URL, prefix).catch(() => undefined);
});

describe('credit.score.address.v1', () => {
  const roles: CastRole[] = ['healthy_borrower', 'liquidated', 'new_wallet', 'multichain', 'ens_holder'];

  it.each(roles)('scores the %s as the model does on the same rows and chain state', async (role) => {
    const address = cast(role);
    const expected = await expectedScore(address);
    expect(expected).not.toBeNull();
    const result = await client.send('credit.score.address.v1', { address: address.toLowerCase() });
    expectShape(result, address, expected!);
    expect(result).not.toHaveProperty('factors');
  });

  it('scores the liquidated wallet below the healthy borrower', async () => {
    const healthy = await client.send('credit.score.address.v1', { address: cast('healthy_borrower') });
    const liquidated = await client.send('credit.score.address.v1', { address: cast('liquidated') });
    expect(liquidated.score).toBeLessThan(healthy.score);
  });

  it('lists the six factors in adverse-action order (most score points lost first), with points and reasons that add up to the score', async () => {
    const address = cast('healthy_borrower');
    const result = await client.send('credit.score.address.v1', { address, include_factors: true });
    expect([...result.factors!.map((f) => f.label)].sort()).toEqual([...FACTOR_LABELS].sort());
    const model = scoreWallet((await expectedFeatures([address])).get(address)!);
    expect(result.factors).toEqual(
      byPointsLost(model.factors).map((f) => ({ label: f.label, rating: f.rating, description: factorDescription(f) })),
    );
    const lost = result.factors!.map((f) => Number(/, ([\d.]+) score points below/.exec(f.description)![1]));
    expect(lost).toEqual([...lost].sort((a, b) => b - a));
  });

  it('answers a wallet without activity with 404 no_activity', async () => {
    expect(await expectedScore(cast('empty'))).toBeNull();
    await expect(client.send('credit.score.address.v1', { address: cast('empty') })).rejects.toMatchObject({
      code: 'no_activity',
      message: `No on-chain activity found for ${cast('empty')}`,
    });
  });

  it('resolves an ENS name to the holder: same address, same score', async () => {
    const byName = await client.send('credit.score.address.v1', { address: 'ada.eth' });
    const byHex = await client.send('credit.score.address.v1', { address: cast('ens_holder') });
    expect(byName.address).toBe(cast('ens_holder'));
    expect(byName.score).toBe(byHex.score);
  });

  it('answers an invalid address or a name that resolves to nothing with 404 address_not_found', async () => {
    expect(await codeOf(client.send('credit.score.address.v1', { address: 'not-an-address' }))).toBe('address_not_found');
    expect(await codeOf(client.send('credit.score.address.v1', { address: 'nobody-registered-this.eth' }))).toBe('address_not_found');
    const mixedBad = `0x${cast('healthy_borrower').slice(2, 41)}${cast('healthy_borrower').slice(41) === 'a' ? 'B' : 'a'}`;
    expect(await codeOf(client.send('credit.score.address.v1', { address: mixedBad }))).toBe('address_not_found');
  });
});

describe('credit.score.aggregate.v1', () => {
  it('averages the valid addresses with activity: invalid and inactive skipped, repeats once', async () => {
    const healthy = cast('healthy_borrower');
    const liquidated = cast('liquidated');
    const result = await client.send('credit.score.aggregate.v1', {
      addresses: [healthy, 'bad', liquidated, healthy.toLowerCase(), cast('empty'), 'nobody-registered-this.eth'],
    });
    const scores = await expectedScores([healthy, liquidated]);
    const mean = Math.round((scores.get(healthy)! + scores.get(liquidated)!) / 2);
    expect(result).toMatchObject({
      address: [healthy, liquidated],
      score: mean,
      decile: decileOf(mean, ANDROMEDA_1_0.decileCutPoints),
      range: rangeOf(mean),
      model_version: 'andromeda_1.0',
    });
  });

  it('answers no valid address with 400 no_valid_address, and only inactive ones with 404 no_activity', async () => {
    await expect(client.send('credit.score.aggregate.v1', { addresses: ['bad', '0x123'] })).rejects.toMatchObject({
      code: 'no_valid_address',
      message: 'No valid address supplied',
    });
    expect(await codeOf(client.send('credit.score.aggregate.v1', { addresses: ['bad', cast('empty')] }))).toBe('no_activity');
  });
});

describe('credit.score.batch.v1', () => {
  it('scores each valid address with activity once, in order; factors only when asked for', async () => {
    const addresses = [cast('multichain'), 'bad', cast('empty'), cast('new_wallet'), cast('multichain').toLowerCase(), 'ada.eth'];
    const plain = await client.send('credit.score.batch.v1', { addresses });
    expect(plain.count).toBe(3);
    expect(plain.scores.map((s) => s.address)).toEqual([cast('multichain'), cast('new_wallet'), cast('ens_holder')]);
    const expected = await expectedScores([cast('multichain'), cast('new_wallet'), cast('ens_holder')]);
    for (const s of plain.scores) {
      expectShape(s, s.address as Address, expected.get(s.address as Address)!);
      expect(s).not.toHaveProperty('factors');
    }
    const detailed = await client.send('credit.score.batch.v1', { addresses, include_factors: true });
    expect(detailed.count).toBe(3);
    for (const s of detailed.scores) expect([...s.factors!.map((f) => f.label)].sort()).toEqual([...FACTOR_LABELS].sort());
  });

  it('answers no valid address with 400 no_valid_address, inactive ones with an empty batch, more than 100 with 400', async () => {
    expect(await codeOf(client.send('credit.score.batch.v1', { addresses: ['bad'] }))).toBe('no_valid_address');
    expect(await client.send('credit.score.batch.v1', { addresses: [cast('empty')] })).toEqual({ scores: [], count: 0 });
    expect(await codeOf(client.send('credit.score.batch.v1', { addresses: population(0, 101) }))).toBe('batch_too_large');
  });
});

describe('credit.score.enhanced.v1', () => {
  it('boosts the on-chain score by the off-chain assets (docs/MODEL.md), decile and range of the boosted score', async () => {
    const address = cast('liquidated');
    const base = (await expectedScore(address))!;
    for (const assets of [0, 12_345, 50_000, 1_000_000]) {
      const result = await client.send('credit.score.enhanced.v1', { address, total_asset_usd: assets });
      const boosted = enhancedScore(base, assets);
      expectShape(result, address, boosted);
      expect(result.score).toBeLessThanOrEqual(1000);
    }
    const none = await client.send('credit.score.enhanced.v1', { address });
    expect(none.score).toBe(base);
  });

  it('answers no activity with 404 no_activity and an invalid address with 404 address_not_found', async () => {
    expect(await codeOf(client.send('credit.score.enhanced.v1', { address: cast('empty'), total_asset_usd: 50_000 }))).toBe('no_activity');
    expect(await codeOf(client.send('credit.score.enhanced.v1', { address: 'bad', total_asset_usd: 50_000 }))).toBe('address_not_found');
  });
});

describe('cache and JSON-RPC requests', () => {
  it('answers a cached address, a cached name and a cached "no activity" with no JSON-RPC request at all', async () => {
    const [address] = population(110, 111);
    proxies.reset();
    const cold = await client.send('credit.score.address.v1', { address: address!, include_factors: true });
    expect(proxies.total()).toBeGreaterThan(0);

    proxies.reset();
    const warm = await client.send('credit.score.address.v1', { address: address!, include_factors: true });
    expect(warm).toEqual(cold);
    await client.send('credit.score.address.v1', { address: 'ada.eth' });
    expect(await codeOf(client.send('credit.score.address.v1', { address: cast('empty') }))).toBe('no_activity');
    await client.send('credit.score.batch.v1', { addresses: [address!, cast('healthy_borrower'), cast('liquidated')] });
    await client.send('credit.score.enhanced.v1', { address: address!, total_asset_usd: 1_000 });
    expect(proxies.counts()).toEqual(Object.fromEntries(registry.map((c) => [c.id, 0])));
  });

  it('reads each chain as often for a cold batch of 100 as for a cold batch of 10: one eth_call, and the blocks past the index', async () => {
    proxies.reset();
    const ten = await client.send('credit.score.batch.v1', { addresses: population(0, 10) });
    const forTen = proxies.counts();
    const methodsForTen = proxies.methods();

    proxies.reset();
    const hundred = await client.send('credit.score.batch.v1', { addresses: population(10, 110) });
    const forHundred = proxies.counts();

    expect(forHundred).toEqual(forTen);
    // per chain: the one multicall of the state, and the blocks the index has not reached yet (the
    // confirmation depth, 2 here: each block and the logs of the tokens and pools in them)
    for (const methods of Object.values(methodsForTen)) {
      expect([...methods].sort()).toEqual([
        'eth_call',
        'eth_getBlockByNumber',
        'eth_getBlockByNumber',
        'eth_getLogs',
        'eth_getLogs',
        'eth_getLogs',
      ]);
    }

    // and the answers are the model's
    const expected = await expectedScores(population(0, 110));
    const scoredCount = [...expected.values()].filter((s) => s !== null).length;
    expect(ten.count + hundred.count).toBe(scoredCount);
    for (const s of [...ten.scores, ...hundred.scores]) expect(s.score).toBe(expected.get(s.address as Address));
  });
});

describe('identity attestations (the Trust factor)', () => {
  const trustOf = (factors: readonly { label: string; description: string }[]) => factors.find((f) => f.label === 'Trust')!.description;

  it("counts the ENS holder's attestations: its Trust factor is the model's for the identity service's list", async () => {
    const address = cast('ens_holder');
    const listed = (await new IdentityServiceAttestations(client).attestationsOf([address])).get(address)!.attestations;
    expect(listed.length).toBeGreaterThanOrEqual(6); // its names, passport, two POAPs, farcaster, lens
    const features = (await expectedFeatures([address])).get(address)!;
    expect(features.identityAttestations).toBe(listed.length);
    const trust = (f: WalletFeatures) => scoreWallet(f).factors.find((x) => x.label === 'Trust')!;
    const result = await client.send('credit.score.address.v1', { address, include_factors: true });
    expect(trustOf(result.factors!)).toBe(factorDescription(trust(features)));
    // and more than a wallet without attestations gets
    expect(trust(features).points).toBeGreaterThan(
      trust({ ...features, identityAttestations: 0, passportScore: null, ensHeldDays: null, poapsAged: 0 }).points,
    );
  });

  it('the identity service gone: an uncached wallet is 503 naming it and nothing is cached; a cached one still answers', async () => {
    await identity.close();
    try {
      const [address] = population(114, 115);
      await expect(client.send('credit.score.address.v1', { address: address! })).rejects.toMatchObject({
        code: 'service_unavailable',
        message: expect.stringContaining('identity service'),
      });
      const cache = new Redis(CACHE_REDIS_URL);
      try {
        expect(await cache.exists(`${prefix}:wallet:v4:${address!}`)).toBe(0);
      } finally {
        cache.disconnect();
      }
      expect((await client.send('credit.score.address.v1', { address: cast('healthy_borrower') })).address).toBe(cast('healthy_borrower'));
    } finally {
      identity = await startIdentity();
    }
  });
});

describe('concurrency and index freshness', () => {
  it('computes an uncached wallet once for concurrent requests (the requests of one reading per chain)', async () => {
    // one reading of one wallet: the multicall, and the blocks the index has not reached yet
    const [single, address] = population(115, 117);
    proxies.reset();
    await client.send('credit.score.address.v1', { address: single! });
    const once = proxies.counts();
    expect(Object.keys(once).map(Number).sort()).toEqual(registry.map((c) => c.id).sort());
    proxies.reset();
    const replies = await Promise.all(Array.from({ length: 5 }, () => client.send('credit.score.address.v1', { address: address! })));
    expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(proxies.counts()).toEqual(once);
  });

  it('scores without its cache when Redis is unreachable (every read a miss), never refusing', async () => {
    const otherPrefix = uniquePrefix('noredis');
    const config = scoringConfig({
      NATS_URL,
      NATS_SUBJECT_PREFIX: otherPrefix,
      HEALTH_PORT: '0',
      DATABASE_URL: database.url,
      REDIS_URL: 'redis://127.0.0.1:1',
      CHAINS: JSON.stringify(registry),
    });
    const otherIdentity = await startIdentityService({
      natsUrl: NATS_URL,
      prefix: otherPrefix,
      redisUrl: REDIS_URL,
      databaseUrl: database.url,
      registry,
      cast: devnet.state.cast,
    });
    const degraded = await startService(ScoringModule.forRoot(config), {
      service: 'scoring',
      natsUrl: NATS_URL,
      subjectPrefix: otherPrefix,
      healthPort: 0,
      silent: true,
    });
    try {
      const other = new RpcClient(nc, otherPrefix);
      const address = cast('healthy_borrower');
      for (let i = 0; i < 2; i++) {
        const result = await other.send('credit.score.address.v1', { address });
        expectShape(result, address, (await expectedScore(address))!);
      }
      other.close();
    } finally {
      await degraded.close();
      await otherIdentity.close();
      await deleteKeysWithPrefix(REDIS_URL, otherPrefix).catch(() => undefined);
    }
  });

  // Last: it stops the indexer and moves a chain's head, then its clock.
  it('refuses to score on history the indexer has not caught up with (503), and says which chain', async () => {
    await world.indexer.close();
    const chain = world.devnet.chains.find((c) => c.spec.id === registry[0]!.id)!;
    const rpc = (method: string, params: unknown[]) => devnetRpc(chain.rpcUrl, method, params);
    // a day of history (five blocks: more than the confirmation depth) the stopped indexer never saw
    await rpc('evm_increaseTime', [DAY]);
    await rpc('anvil_mine', ['0x5']);
    const [address] = population(112, 113);
    const error = await client.send('credit.score.address.v1', { address: address! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('service_unavailable');
    expect((error as DomainError).message).toContain(`chain ${chain.spec.id} is 7 blocks (24 h) behind its head`); // 2 of confirmation depth + 5
    // a cached score still answers
    expect((await client.send('credit.score.address.v1', { address: cast('healthy_borrower') })).address).toBe(cast('healthy_borrower'));

    // a head older than the indexed history (a chain whose clock went back) is never scored from
    await rpc('evm_setTime', [ANCHOR - 400 * DAY]);
    await rpc('evm_mine', []);
    const [other] = population(113, 114);
    await expect(client.send('credit.score.address.v1', { address: other! })).rejects.toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(new RegExp(`^Chain ${chain.spec.id}'s head \\(block \\d+, .*\\) is behind its indexed history`)),
    });
    // and nothing was cached for either refused address
    const cache = new Redis(CACHE_REDIS_URL);
    const queues = new Redis(REDIS_URL);
    try {
      expect(await cache.exists(...[address!, other!].map((a) => `${prefix}:wallet:v4:${a}`))).toBe(0);
      expect(await cache.exists(`${prefix}:wallet:v4:${cast('healthy_borrower')}`)).toBe(1);
      // CACHE_REDIS_URL given: nothing of the cache on the queues' Redis
      expect(await queues.keys(`${prefix}:wallet:*`)).toEqual([]);
    } finally {
      cache.disconnect();
      queues.disconnect();
    }
  });
});
