import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { connect, type NatsConnection } from 'nats';
import { getAddress } from 'viem';
import { attestationStrings } from '@credit/contracts/attestations';
import { ENS_HOLDER_AVATAR, ENS_HOLDER_NAME, ENS_HOLDER_NAMES } from '@credit/devnet/seed/cast';
import type { CastRole } from '@credit/devnet/state-file';
import { identityConfig } from '@credit/identity/config';
import { IdentityModule } from '@credit/identity/identity.module';
import { RpcClient } from '@credit/rpc/rpc-client';
import { startService, type RunningService } from '@credit/rpc/start-service';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { startIdentityService } from '@credit/test-world/identity-service';
import { rpc as devnetRpc } from '@credit/devnet/json-rpc';
import { DAY } from '@credit/devnet/seed/time';
import { REDIS_URL, startReferenceStack, stubProviderEnv, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';

/**
 * docs/API.md §4.3 end to end on the reference world: HTTP → gateway → NATS → identity → (the ENS
 * contracts on chain 1, the providers' local stubs in their documented shapes) and back; then a
 * second identity service whose providers misbehave (one never answers, one answers HTML).
 */
jest.setTimeout(300_000);

let reference: ReferenceStack;
const cast = (role: CastRole) => getAddress(reference.world.devnet.state.cast[role]!.address);
const attestations = (address: string) =>
  http(reference.stack.url, `/api/v2/identity/address/${address}/attestations`, { key: reference.key });

beforeAll(async () => {
  reference = await startReferenceStack(['identity', 'reports']);
});

afterAll(async () => {
  await reference?.close();
});

describe('GET /api/v2/identity/address/{a}/attestations', () => {
  it('the ENS holder: primary and owned names and avatar from the chain, every provider, cached on the second call', async () => {
    const first = await attestations(cast('ens_holder'));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      address: cast('ens_holder'),
      // every name the registry's events gave it (the indexer's name index), not only the primary
      ens: { primary_name: ENS_HOLDER_NAME, owned_names: [...ENS_HOLDER_NAMES].sort(), avatar: ENS_HOLDER_AVATAR },
      ext_passport: {
        score: 27.415,
        stamps: [
          { provider: 'Google', verified: true },
          { provider: 'Github', verified: true },
          { provider: 'Ens', verified: true },
        ],
      },
      poaps: {
        count: 2,
        events: [
          { name: 'Devcon 7', date: '2024-11-12' },
          { name: 'ETHGlobal Brussels 2025', date: '2025-07-11' },
        ],
      },
      social: { farcaster: 'ada', lens: 'ada' },
      cached: false,
      timestamp: expect.any(String),
    });
    const second = await attestations(cast('ens_holder'));
    expect(second.body).toEqual({ ...first.body, cached: true });
  });

  it('by name: the same answer; the report lists the same attestations', async () => {
    const [byName, byAddress, report] = await Promise.all([
      attestations(ENS_HOLDER_NAME),
      attestations(cast('ens_holder')),
      http(reference.stack.url, `/api/v2/report/address/${ENS_HOLDER_NAME}/summary`, { key: reference.key }),
    ]);
    expect(byName.body).toEqual(byAddress.body);
    expect(report.body.report.summary.list_identity_attestations).toEqual([
      `ens:${ENS_HOLDER_NAME}`,
      ...[...ENS_HOLDER_NAMES]
        .sort()
        .filter((n) => n !== ENS_HOLDER_NAME)
        .map((n) => `ens:${n}`),
      'passport',
      'poap:Devcon 7',
      'poap:ETHGlobal Brussels 2025',
      'farcaster:ada',
      'lens:ada',
    ]);
    expect(report.body.report.summary.list_identity_attestations).toEqual(attestationStrings(byAddress.body));
    expect(report.body.report.summary.count_identity_attestations).toBe(8);
  });

  it('population wallets that own names without a primary one: their names from the index, one of them several', async () => {
    const owners = reference.world.devnet.state.population.filter((m) => (m.ens ?? []).length > 0);
    expect(owners.length).toBeGreaterThanOrEqual(2);
    expect(owners.some((m) => m.ens!.length > 1)).toBe(true);
    for (const owner of owners) {
      const res = await attestations(owner.address);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        address: getAddress(owner.address),
        ens: { primary_name: null, owned_names: [...owner.ens!].sort(), avatar: null },
        cached: false,
        timestamp: expect.any(String),
      });
    }
  });

  it('a wallet some providers know: only their fields; a wallet nobody knows: 404 with a detail', async () => {
    const some = await attestations(cast('multichain'));
    expect(some.status).toBe(200);
    expect(some.body).toEqual({
      address: cast('multichain'),
      social: { farcaster: 'bridger' },
      cached: false,
      timestamp: expect.any(String),
    });
    const none = await attestations(cast('empty'));
    expect(none.status).toBe(404);
    expect(Object.keys(none.body)).toEqual(['detail']);
  });

  it.each(['0x1234', 'nobody-here.eth', 'ｎｏｂｏｄｙ.eth', '💩💩.eth', 'a'.repeat(60) + '.eth'])(
    '%s → 404 with a detail, never a 500',
    async (bad) => {
      const res = await attestations(encodeURIComponent(bad));
      expect(res.status).toBe(404);
      expect(Object.keys(res.body)).toEqual(['detail']);
    },
  );
});

describe('providers that misbehave', () => {
  let identity: RunningService;
  let nc: NatsConnection;
  let client: RpcClient;
  let hanging: Server;
  let html: Server;
  const prefix = uniquePrefix('identitybad');

  const listen = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  };
  const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  beforeAll(async () => {
    hanging = await listen(() => undefined); // never answers
    html = await listen((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'));
    const env = {
      ...stubProviderEnv(reference.stubs),
      POAP_API_URL: urlOf(hanging),
      PASSPORT_API_URL: urlOf(html),
      DATABASE_URL: reference.stack.databaseUrl,
      IDENTITY_SOURCE_TIMEOUT_MS: '500',
      NATS_URL,
      NATS_SUBJECT_PREFIX: prefix,
      REDIS_URL,
      HEALTH_PORT: '0',
      CHAINS: JSON.stringify(reference.counted.registry),
    };
    identity = await startService(IdentityModule.forRoot(identityConfig(env)), {
      service: 'identity',
      natsUrl: NATS_URL,
      subjectPrefix: prefix,
      healthPort: 0,
      silent: true,
    });
    nc = await connect({ servers: NATS_URL });
    client = new RpcClient(nc, prefix);
  });

  afterAll(async () => {
    client?.close();
    await nc?.close();
    await identity?.close();
    hanging?.closeAllConnections();
    hanging?.close();
    html?.close();
    await deleteKeysWithPrefix(REDIS_URL, prefix).catch(() => undefined);
  });

  it('answers with what answered in time, and caches that only briefly', async () => {
    const reply = await client.send('credit.identity.attestations.v1', { address: cast('ens_holder') });
    expect(reply.ens?.primary_name).toBe(ENS_HOLDER_NAME);
    expect(reply.social).toEqual({ farcaster: 'ada', lens: 'ada' });
    expect(reply.poaps).toBeUndefined(); // never answered
    expect(reply.ext_passport).toBeUndefined(); // answered HTML
    // the internal form says so, and a report built on it would refuse (docs/ARCHITECTURE.md decision 26)
    const many = await client.send('credit.identity.attestations-many.v1', { addresses: [cast('ens_holder')] });
    expect(many.results).toEqual([{ address: cast('ens_holder'), attestations: { ...reply, cached: true }, complete: false }]);
    const redis = new Redis(REDIS_URL);
    try {
      const ttl = await redis.ttl(`${prefix}:identity:v1:${cast('ens_holder')}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(30);
    } finally {
      redis.disconnect();
    }
  });

  it('nothing found while a provider failed: 503 naming it, not a 404 that would claim there is nothing', async () => {
    await expect(client.send('credit.identity.attestations.v1', { address: cast('empty') })).rejects.toMatchObject({
      code: 'service_unavailable',
      message: expect.stringMatching(/passport.*poap|poap.*passport/),
    });
  });
});

// Last: it stops the reference world's indexer and moves the ENS chain past it.
describe('the name index behind the chain', () => {
  it('serves no owned names from a stale index: the ENS source fails and the answer says it is incomplete', async () => {
    const staleprefix = uniquePrefix('identitystale');
    const { world } = reference;
    await world.indexer.close();
    const ensChain = world.devnet.chains.find((c) => world.registry.find((r) => r.id === c.spec.id)?.ens)!;
    // a day of history (five blocks: more than the confirmation depth) the stopped indexer never saw
    await devnetRpc(ensChain.rpcUrl, 'evm_increaseTime', [DAY]);
    await devnetRpc(ensChain.rpcUrl, 'anvil_mine', ['0x5']);
    const fresh = await startIdentityService({
      natsUrl: NATS_URL,
      prefix: staleprefix,
      redisUrl: REDIS_URL,
      databaseUrl: reference.stack.databaseUrl,
      registry: world.registry,
      cast: world.devnet.state.cast,
    });
    const nc = await connect({ servers: NATS_URL });
    try {
      const many = await new RpcClient(nc, staleprefix).send('credit.identity.attestations-many.v1', { addresses: [cast('ens_holder')] });
      expect(many.results).toHaveLength(1);
      expect(many.results[0]!.complete).toBe(false);
      expect(many.results[0]!.attestations?.ens).toBeUndefined(); // not a primary name with a short list of owned names
      expect(many.results[0]!.attestations?.social).toEqual({ farcaster: 'ada', lens: 'ada' }); // the providers still answer
    } finally {
      await nc.close();
      await fresh.close();
      await deleteKeysWithPrefix(REDIS_URL, staleprefix).catch(() => undefined);
    }
  });
});
