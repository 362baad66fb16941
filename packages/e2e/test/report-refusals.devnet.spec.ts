import { Redis } from 'ioredis';
import { getAddress, type Address } from 'viem';
import { REDIS_URL } from '@credit/test-stack/reference-stack';
import { WalletCache } from '@credit/wallet/wallet-cache';
import { reportWorld } from './support/report-world';

/**
 * The report routes' refusals end to end on the reference world: bad inputs (404 / 400), then the
 * identity service gone and a chain that stops answering (503 naming it, nothing cached, the cached
 * readings still answered), in that order: each stops a part of the world for good.
 */

jest.setTimeout(300_000);

const r = reportWorld();
const { cast, get, post } = r;

// The wallet the last case answers from the cache: read while the identity service is still up,
// as the report routes' other cases have read it before (report-figures.devnet.spec.ts).
beforeAll(async () => {
  await get(`/api/v2/report/address/${cast('multichain')}`);
});

describe('the bad inputs', () => {
  it.each([
    ['/api/v2/report/address/{empty}', 'the address without activity'],
    ['/api/v2/report/address/{empty}/summary', 'its summary'],
    ['/api/v2/report/address/{empty}/total/usd', 'its total'],
    ['/api/v2/report/address/0x1234', 'an invalid address'],
    ['/api/v2/report/address/nobody-here.eth/chain/1', 'an unknown name'],
  ])('%s (%s) → 404 with a detail', async (path) => {
    const res = await get(path.replace('{empty}', cast('empty')));
    // the whole answer compared, so a failure shows the detail it came with
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { detail: expect.any(String) } });
  });

  it('an unconfigured chain id → 404 naming it; a chain id that is not a positive integer → 400', async () => {
    for (const path of ['chain/999', 'chain/999/total/usd']) {
      const res = await get(`/api/v2/report/address/${cast('multichain')}/${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.stringContaining('Chain 999') });
    }
    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const res = await get(`/api/v2/report/address/${cast('multichain')}/chain/${bad}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['detail']);
    }
  });
});

/** Whether each address has a wallet-cache entry (the key as the services write it). */
async function cachedKeys(addresses: readonly string[]): Promise<number[]> {
  const redis = new Redis(REDIS_URL);
  try {
    const cache = new WalletCache(redis, 1, r.stack.prefix, { warn: () => undefined });
    return await Promise.all(addresses.map((a) => redis.exists(cache.walletKey(a as Address))));
  } finally {
    redis.disconnect();
  }
}

describe('the identity service gone', () => {
  it('→ 503 naming it for an uncached wallet, nothing cached; a cached reading (attestations read in full) still answers', async () => {
    const cachedBody = (await get(`/api/v2/report/address/${cast('healthy_borrower')}`)).body;
    await r.reference.identity.close();
    const uncached = getAddress(r.world.devnet.state.population[260]!.address);
    const res = await get(`/api/v2/report/address/${uncached}`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: expect.stringContaining('identity service') });
    expect(await cachedKeys([uncached, cast('healthy_borrower')])).toEqual([0, 1]);
    expect((await get(`/api/v2/report/address/${cast('healthy_borrower')}`)).body).toEqual(cachedBody);
  });
});

// After identity has gone: a chain that fails is named first all the same (the reading's fixed order).
describe('a chain that stops answering', () => {
  it('→ 503 naming the chain for an uncached wallet, nothing cached; the cached ones still answer', async () => {
    const cachedBody = (await get(`/api/v2/report/address/${cast('multichain')}`)).body;
    const uncached = getAddress(r.world.devnet.state.population[250]!.address);
    const down = r.world.registry[r.world.registry.length - 1]!;
    await r.counted.proxies.get(down.id)!.close();
    for (const res of [
      await get(`/api/v2/report/address/${uncached}`),
      await post(`/api/v2/report/address/${cast('multichain')}`, { name: 'bank' }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: expect.stringContaining(`chain ${down.id} (${down.name})`) });
    }
    expect(await cachedKeys([uncached, cast('multichain')])).toEqual([0, 1]);
    const cached = await get(`/api/v2/report/address/${cast('multichain')}`);
    expect(cached.body).toEqual(cachedBody);
  });
});
