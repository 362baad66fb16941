import { Redis } from 'ioredis';
import type { Address } from 'viem';
import { DomainError } from '@credit/contracts/errors';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { AddressResolver } from '@credit/wallet/address-resolver';
import { WalletCache } from '@credit/wallet/wallet-cache';
import { IdentityCache } from '../src/domain/identity-cache';
import type { IdentityFields, IdentitySource, SourceName } from '../src/domain/identity-source';
import { SourceFanout } from '../src/domain/source-fanout';
import { identityAttestations } from '../src/use-cases/identity-attestations';
import type { IdentityDeps } from '../src/use-cases/identity-deps';

/**
 * The lookup's rules on the real Redis, with sources that answer, answer nothing, fail or never
 * answer (our own interface; the providers' HTTP adapters are tested against their stubs).
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const A = '0x1111111111111111111111111111111111111111' as Address;
const silent = { warn: () => undefined, log: () => undefined };

const source = (name: SourceName, answer: () => Promise<IdentityFields | undefined>, timeoutMs = 300): IdentitySource => ({
  name,
  timeoutMs,
  lookup: (_address, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      answer().then(resolve, reject);
    }),
});
const never = () => new Promise<never>(() => undefined);

let redis: Redis;
let prefix: string;

beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  await redis.quit();
});
beforeEach(() => {
  prefix = uniquePrefix('identity');
});
afterEach(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
});

function deps(sources: IdentitySource[], incompleteSeconds = 30): { deps: IdentityDeps; fanout: SourceFanout } {
  const fanout = new SourceFanout(sources, silent);
  return {
    fanout,
    deps: {
      resolver: new AddressResolver(new WalletCache(redis, 300, prefix, silent), undefined, silent),
      cache: new IdentityCache(redis, prefix, { completeSeconds: 300, incompleteSeconds }, silent),
      sources: fanout,
      now: () => new Date('2026-11-23T10:00:00.000Z'),
    },
  };
}

it('merges what every source found, social per network; a second request is the cached first one', async () => {
  const { deps: d } = deps([
    source('ens', async () => ({ ens: { primary_name: 'ada.eth', owned_names: ['ada.eth'], avatar: null } })),
    source('farcaster', async () => ({ social: { farcaster: 'ada' } })),
    source('lens', async () => ({ social: { lens: 'ada-lens' } })),
    source('poap', async () => undefined),
  ]);
  const first = await identityAttestations({ address: A.toLowerCase() }, d);
  expect(first).toEqual({
    address: A,
    ens: { primary_name: 'ada.eth', owned_names: ['ada.eth'], avatar: null },
    social: { farcaster: 'ada', lens: 'ada-lens' },
    cached: false,
    timestamp: '2026-11-23T10:00:00.000Z',
  });
  expect(await identityAttestations({ address: A }, d)).toEqual({ ...first, cached: true });
  expect(await redis.ttl(`${prefix}:identity:v1:${A}`)).toBeGreaterThan(290);
});

it('a failing and a silent source are left out, counted, and the incomplete answer is cached briefly', async () => {
  const { deps: d, fanout } = deps([
    source('ens', async () => ({ ens: { primary_name: null, owned_names: [], avatar: null } })),
    source('passport', async () => {
      throw new Error('500 from the provider');
    }),
    source('poap', never, 100),
  ]);
  const reply = await identityAttestations({ address: A }, d);
  expect(reply.ens).toEqual({ primary_name: null, owned_names: [], avatar: null });
  expect(reply.ext_passport).toBeUndefined();
  expect(fanout.counters).toEqual({
    ens: { found: 1, nothing: 0, failed: 0 },
    passport: { found: 0, nothing: 0, failed: 1 },
    poap: { found: 0, nothing: 0, failed: 1 },
  });
  const ttl = await redis.ttl(`${prefix}:identity:v1:${A}`);
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(30);
});

it('no data: 404 when every source answered (and that is cached); 503 naming the sources when some failed (nothing cached)', async () => {
  const failing = deps([source('ens', async () => undefined), source('poap', never, 100)]);
  await expect(identityAttestations({ address: A }, failing.deps)).rejects.toMatchObject({
    code: 'service_unavailable',
    message: expect.stringContaining('poap'),
  });
  expect(await redis.exists(`${prefix}:identity:v1:${A}`)).toBe(0);

  const empty = deps([source('ens', async () => undefined), source('poap', async () => undefined)]);
  for (let i = 0; i < 2; i++) {
    const error = await identityAttestations({ address: A }, empty.deps).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'no_identity_data' });
  }
  expect(empty.fanout.counters.ens).toEqual({ found: 0, nothing: 1, failed: 0 });
});

it('an invalid address or a name without an ENS chain: 404 address_not_found, no source asked', async () => {
  const { deps: d, fanout } = deps([source('ens', async () => undefined)]);
  for (const bad of ['0x1234', 'ada.eth', 'ａｄａ.eth']) {
    await expect(identityAttestations({ address: bad }, d)).rejects.toMatchObject({ code: 'address_not_found' });
  }
  expect(fanout.counters.ens).toEqual({ found: 0, nothing: 0, failed: 0 });
});
