import type { Address } from 'viem';
import { Redis } from 'ioredis';
import { TAIL_SLACK_BLOCKS } from '@credit/chain/head-reading';
import { DomainError } from '@credit/contracts/errors';
import { rpc as devnetRpc } from '@credit/devnet/json-rpc';
import { DAY } from '@credit/devnet/seed/time';
import { RpcClient } from '@credit/rpc/rpc-client';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { codeOf } from '@credit/testing/domain-errors';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startIdentityService } from '@credit/test-world/identity-service';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { IdentityServiceAttestations } from '@credit/wallet/identity-attestations';
import { WalletCache } from '@credit/wallet/wallet-cache';
import { factorDescription } from '../src/domain/replies';
import { NATS_URL, REDIS_URL, startScoringService } from './support/scoring-service';
import { ANCHOR, CACHE_REDIS_URL, scoringWorld } from './support/scoring-world';
import { withoutIdentity } from './support/wallet-features-fixture';

/**
 * How the scoring service reads a wallet (`support/scoring-world.ts`: a seeded, indexed devnet
 * behind counting proxies): the cache and the JSON-RPC requests a reading costs, the identity
 * service's attestations and its absence, one reading for concurrent requests, no cache at all,
 * and an index that has fallen behind its chain.
 */
jest.setTimeout(180_000);

const t = scoringWorld();
const { cast, population, expectedScore, expectedScores, expectedFeatures, expectShape } = t;

// What the subjects' answers have read before (scoring-subjects.nats.spec.ts): an address, a name
// and a wallet without activity, cached as in a service that has answered them.
beforeAll(async () => {
  for (const address of [t.cast('healthy_borrower'), t.cast('liquidated'), 'ada.eth'])
    await t.client.send('credit.score.address.v1', { address });
  await codeOf(t.client.send('credit.score.address.v1', { address: t.cast('empty') }));
});

describe('cache and JSON-RPC requests', () => {
  it('answers a cached address, a cached name and a cached "no activity" with no JSON-RPC request at all', async () => {
    const [address] = population(110, 111);
    t.proxies.reset();
    const cold = await t.client.send('credit.score.address.v1', { address: address!, include_factors: true });
    expect(t.proxies.total()).toBeGreaterThan(0);

    t.proxies.reset();
    const warm = await t.client.send('credit.score.address.v1', { address: address!, include_factors: true });
    expect(warm).toEqual(cold);
    await t.client.send('credit.score.address.v1', { address: 'ada.eth' });
    expect(await codeOf(t.client.send('credit.score.address.v1', { address: cast('empty') }))).toBe('no_activity');
    await t.client.send('credit.score.batch.v1', { addresses: [address!, cast('healthy_borrower'), cast('liquidated')] });
    await t.client.send('credit.score.enhanced.v1', { address: address!, total_asset_usd: 1_000 });
    expect(t.proxies.counts()).toEqual(Object.fromEntries(t.registry.map((c) => [c.id, 0])));
  });

  it('reads each chain in ONE round trip for a cold batch of 10 as for one of 100: the multicall and the blocks past the index, batched', async () => {
    t.proxies.reset();
    const ten = await t.client.send('credit.score.batch.v1', { addresses: population(0, 10) });
    const forTen = t.proxies.counts();
    const methodsForTen = t.proxies.methods();

    t.proxies.reset();
    const hundred = await t.client.send('credit.score.batch.v1', { addresses: population(10, 110) });
    const forHundred = t.proxies.counts();

    expect(forTen).toEqual(Object.fromEntries(t.registry.map((c) => [c.id, 1])));
    expect(forHundred).toEqual(forTen);
    // per chain, in one JSON-RPC batch: the multicall of the state at the head, and the blocks the
    // index has not reached yet (its confirmation depth, 2 here, and TAIL_SLACK_BLOCKS more, past
    // the head: answered null) with the logs of the tokens and pools in them
    for (const methods of Object.values(methodsForTen)) {
      expect([...methods].sort()).toEqual([
        'eth_call',
        ...Array<string>(2 + TAIL_SLACK_BLOCKS).fill('eth_getBlockByNumber'),
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

describe('the cached verdict (a warm score re-scores nothing)', () => {
  const views = (redis: Redis) => new WalletCache(redis, 300, t.prefix, { warn: () => undefined });

  it('keeps the verdict beside its view, serves it warm, and drops it with the view a fresh reading replaces', async () => {
    const [address] = population(118, 119) as Address[];
    const redis = new Redis(CACHE_REDIS_URL);
    const cache = views(redis);
    try {
      const cold = await t.client.send('credit.score.address.v1', { address: address!, include_factors: true });
      const key = cache.walletKey(address!);
      const fields = await redis.hkeys(key);
      const verdictField = fields.find((f) => f.startsWith('score:'))!;
      expect(fields.sort()).toEqual(['at', 'view', verdictField].sort());
      expect(await redis.hget(key, 'at')).toBe(cold.timestamp);

      // the warm answer is the stored verdict, not a scoring of the view: a verdict written by
      // hand (a shape the service accepts) is what it answers
      const verdict = JSON.parse((await redis.hget(key, verdictField))!) as { score: number };
      await redis.hset(key, verdictField, JSON.stringify({ ...verdict, score: verdict.score === 700 ? 701 : 700 }));
      expect((await t.client.send('credit.score.address.v1', { address: address! })).score).toBe(verdict.score === 700 ? 701 : 700);

      // a fresh reading (the enhanced report's) replaces the view: the verdict goes with it, and
      // the next score is the new view's, computed again
      const view = (await cache.getWallets([address!])).get(address!)!;
      const reread = { ...view, computedAt: new Date(Date.parse(view.computedAt) + 1_000).toISOString() };
      await cache.setWallets(new Map([[address!, reread]]));
      expect(await redis.hexists(key, verdictField)).toBe(0);
      const again = await t.client.send('credit.score.address.v1', { address: address!, include_factors: true });
      expect(again).toEqual({ ...cold, timestamp: reread.computedAt });
      expect(await redis.hexists(key, verdictField)).toBe(1);

      // a verdict of the view before is never stored beside the new one (a scorer that read the
      // old view while the fresh reading was written)
      await cache.setDerived([{ address: address!, viewComputedAt: view.computedAt, value: '{"noActivity":true}' }], verdictField);
      expect(JSON.parse((await redis.hget(key, verdictField))!)).toMatchObject({ score: cold.score });
    } finally {
      redis.disconnect();
    }
  });

  it('scores the view again when its verdict is unreadable', async () => {
    const [address] = population(119, 120) as Address[];
    const redis = new Redis(CACHE_REDIS_URL);
    try {
      const cold = await t.client.send('credit.score.address.v1', { address: address! });
      const key = views(redis).walletKey(address!);
      const verdictField = (await redis.hkeys(key)).find((f) => f.startsWith('score:'))!;
      await redis.hset(key, verdictField, '{"score":"not a number"');
      expect(await t.client.send('credit.score.address.v1', { address: address! })).toEqual(cold);
      expect(JSON.parse((await redis.hget(key, verdictField))!)).toMatchObject({ score: cold.score });
    } finally {
      redis.disconnect();
    }
  });
});

describe('identity attestations (the Trust factor)', () => {
  const trustOf = (factors: readonly { label: string; description: string }[]) => factors.find((f) => f.label === 'Trust')!.description;

  it("counts the ENS holder's attestations: its Trust factor is the model's for the identity service's list", async () => {
    const address = cast('ens_holder');
    const listed = (await new IdentityServiceAttestations(t.client).attestationsOf([address])).get(address)!.attestations;
    expect(listed.length).toBeGreaterThanOrEqual(6); // its names, passport, two POAPs, farcaster, lens
    const features = (await expectedFeatures([address])).get(address)!;
    expect(features.identityAttestations).toBe(listed.length);
    const trust = (f: WalletFeatures) => scoreWallet(f).factors.find((x) => x.label === 'Trust')!;
    const result = await t.client.send('credit.score.address.v1', { address, include_factors: true });
    expect(trustOf(result.factors!)).toBe(factorDescription(trust(features)));
    // its reasons read the passport, the name's holding time and the aged POAPs a wallet without attestations lacks
    expect(trust(features).reasons).not.toEqual(trust(withoutIdentity(features)).reasons);
    expect(trust(features).reasons.join('; ')).toMatch(/passport score .* → bin/);
  });

  it('the identity service gone: an uncached wallet is 503 naming it and nothing is cached; a cached one still answers', async () => {
    await t.identity.close();
    try {
      const [address] = population(114, 115);
      await expect(t.client.send('credit.score.address.v1', { address: address! })).rejects.toMatchObject({
        code: 'service_unavailable',
        message: expect.stringContaining('identity service'),
      });
      const cache = new Redis(CACHE_REDIS_URL);
      try {
        expect(await cache.exists(`${t.prefix}:wallet:v5:${address!}`)).toBe(0);
      } finally {
        cache.disconnect();
      }
      expect((await t.client.send('credit.score.address.v1', { address: cast('healthy_borrower') })).address).toBe(
        cast('healthy_borrower'),
      );
    } finally {
      t.identity = await t.startIdentity();
    }
  });
});

describe('concurrency and index freshness', () => {
  it('computes an uncached wallet once for concurrent requests (the requests of one reading per chain)', async () => {
    // one reading of one wallet: the multicall, and the blocks the index has not reached yet
    const [single, address] = population(115, 117);
    t.proxies.reset();
    await t.client.send('credit.score.address.v1', { address: single! });
    const once = t.proxies.counts();
    expect(Object.keys(once).map(Number).sort()).toEqual(t.registry.map((c) => c.id).sort());
    t.proxies.reset();
    const replies = await Promise.all(Array.from({ length: 5 }, () => t.client.send('credit.score.address.v1', { address: address! })));
    expect(new Set(replies.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(t.proxies.counts()).toEqual(once);
  });

  it('scores without its cache when Redis is unreachable (every read a miss), never refusing', async () => {
    const otherPrefix = uniquePrefix('noredis');
    const otherIdentity = await startIdentityService({
      natsUrl: NATS_URL,
      prefix: otherPrefix,
      redisUrl: REDIS_URL,
      databaseUrl: t.database.url,
      registry: t.registry,
      cast: t.devnet.state.cast,
    });
    const degraded = await startScoringService(otherPrefix, {
      HEALTH_PORT: '0',
      DATABASE_URL: t.database.url,
      REDIS_URL: 'redis://127.0.0.1:1',
      CHAINS: JSON.stringify(t.registry),
    });
    try {
      const other = new RpcClient(t.nc, otherPrefix);
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
    await t.world.indexer.close();
    const chain = t.world.devnet.chains.find((c) => c.spec.id === t.registry[0]!.id)!;
    const rpc = (method: string, params: unknown[]) => devnetRpc(chain.rpcUrl, method, params);
    // a day of history (five blocks: more than the confirmation depth) the stopped indexer never saw
    await rpc('evm_increaseTime', [DAY]);
    await rpc('anvil_mine', ['0x5']);
    const [address] = population(112, 113);
    const error = await t.client.send('credit.score.address.v1', { address: address! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('service_unavailable');
    expect((error as DomainError).message).toContain(`chain ${chain.spec.id} is 7 blocks (24 h) behind its head`); // 2 of confirmation depth + 5
    // a cached score still answers
    expect((await t.client.send('credit.score.address.v1', { address: cast('healthy_borrower') })).address).toBe(cast('healthy_borrower'));

    // a head older than the indexed history (a chain whose clock went back) is never scored from
    await rpc('evm_setTime', [ANCHOR - 400 * DAY]);
    await rpc('evm_mine', []);
    const [other] = population(113, 114);
    await expect(t.client.send('credit.score.address.v1', { address: other! })).rejects.toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(new RegExp(`^Chain ${chain.spec.id}'s head \\(block \\d+, .*\\) is behind its indexed history`)),
    });
    // and nothing was cached for either refused address
    const cache = new Redis(CACHE_REDIS_URL);
    const queues = new Redis(REDIS_URL);
    try {
      expect(await cache.exists(...[address!, other!].map((a) => `${t.prefix}:wallet:v5:${a}`))).toBe(0);
      expect(await cache.exists(`${t.prefix}:wallet:v5:${cast('healthy_borrower')}`)).toBe(1);
      // CACHE_REDIS_URL given: nothing of the cache on the queues' Redis
      expect(await queues.keys(`${t.prefix}:wallet:*`)).toEqual([]);
    } finally {
      cache.disconnect();
      queues.disconnect();
    }
  });
});
