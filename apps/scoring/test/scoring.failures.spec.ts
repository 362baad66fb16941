import type { NatsConnection } from 'nats';
import { getAddress } from 'viem';
import { ConfigError } from '@credit/config/load-config';
import { DomainError } from '@credit/contracts/errors';
import { connectNats } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import type { RunningService } from '@credit/rpc/start-service';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { scoringConfig } from '../src/config';
import { NATS_URL, REDIS_URL, startScoringService } from './support/scoring-service';

/**
 * Dependencies that fail: a chain node that refuses connections answers every uncached score as
 * `service_unavailable` (503: retry), promptly and again on the next request: no hang, no crash,
 * no made-up figure, nothing cached. And a bad environment stops the boot with every problem named.
 */
jest.setTimeout(60_000);

const WALLET = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const DEAD_CHAIN = {
  id: 1,
  name: 'Unreachable',
  rpcUrl: 'http://127.0.0.1:1',
  nativeSymbol: 'ETH',
  nativePriceFeed: getAddress('0x5f4ec3df9cbd43714fe2740f5e3616155c5b8419'),
  ens: { universalResolver: getAddress('0xce01f8eee7e479c928f8919abd53e553a36cef67') },
};

describe('scoring with a chain that does not answer', () => {
  const prefix = uniquePrefix('scoringfail');
  let database: TestDatabase;
  let service: RunningService;
  let nc: NatsConnection;
  let client: RpcClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = await startScoringService(prefix, {
      DATABASE_URL: database.url,
      REDIS_URL,
      CHAINS: JSON.stringify([DEAD_CHAIN]),
      CHAIN_RPC_RETRIES: '0',
    });
    nc = await connectNats({ url: NATS_URL, name: 'scoring-failure-test' });
    client = new RpcClient(nc, prefix);
  });

  afterAll(async () => {
    await nc?.close().catch(() => undefined);
    await service?.close().catch(() => undefined);
    await database?.drop().catch(() => undefined);
    await deleteKeysWithPrefix(REDIS_URL, prefix).catch(() => undefined);
  });

  it('answers service_unavailable naming what did not answer, every time, for an address and for a name', async () => {
    for (let i = 0; i < 2; i++) {
      const error = await client.send('credit.score.address.v1', { address: WALLET }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: 'service_unavailable',
        message: expect.stringContaining(`chain ${DEAD_CHAIN.id} (${DEAD_CHAIN.name})`),
      });
    }
    await expect(client.send('credit.score.batch.v1', { addresses: [WALLET] })).rejects.toMatchObject({ code: 'service_unavailable' });
    await expect(client.send('credit.score.address.v1', { address: 'vitalik.eth' })).rejects.toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/name service/),
    });
    // invalid input needs no chain: still the domain answer
    await expect(client.send('credit.score.address.v1', { address: 'bad' })).rejects.toMatchObject({ code: 'address_not_found' });
  });
});

describe('scoringConfig', () => {
  it('names every problem at once', () => {
    expect(() => scoringConfig({ WALLET_CACHE_TTL_SECONDS: '-5', REDIS_URL: 'http://nope' })).toThrow(ConfigError);
    try {
      scoringConfig({ WALLET_CACHE_TTL_SECONDS: '-5', REDIS_URL: 'http://nope' });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('WALLET_CACHE_TTL_SECONDS');
      expect(message).toContain('REDIS_URL');
      expect(message).toContain('no chains configured');
    }
  });

  it('defaults the cache lifetime to docs/API.md §8 five minutes', () => {
    expect(scoringConfig({ CHAINS: JSON.stringify([DEAD_CHAIN]) })).toMatchObject({
      WALLET_CACHE_TTL_SECONDS: 300,
      NATS_SUBJECT_PREFIX: '',
    });
  });
});
