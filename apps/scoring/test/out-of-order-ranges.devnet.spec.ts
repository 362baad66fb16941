import { createPublicClient, createWalletClient, getAddress, http, keccak256, parseEther, toHex } from 'viem';
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { ChainActivityRepository } from '@credit/db/chain-activity-repository';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { rpc } from '@credit/devnet/json-rpc';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { indexRange } from '@credit/test-world/index-range';
import { startIndexedDevnet, type IndexedDevnet } from '@credit/test-world/indexed-devnet';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { WalletReadEnv } from '@credit/wallet/wallet-read-env';
import { WalletResources } from '@credit/wallet/wallet-resources';
import type { WalletView } from '@credit/wallet/wallet-view';
import { NATS_URL, REDIS_URL } from './support/scoring-service';

/**
 * A range the indexer commits before an earlier one: its flows are in Postgres while the chain's
 * checkpoint stops short of them, and a wallet reading also reads those blocks from the chain
 * (the tail past the checkpoint). Regression: the money that arrived there was counted twice, so
 * a wallet's lowest balance (and its score) depended on the moment it was read. A reading takes
 * the index's flows up to the checkpoint it read (`flowsUpToCheckpoint` in wallet-reader.ts).
 */
jest.setTimeout(120_000);

const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const CONFIRMATIONS = 2;
const ARRIVED = parseEther('1');

describe('a wallet read while a later range is committed and an earlier one is not', () => {
  const prefix = uniquePrefix('gap');
  const wallet = getAddress(privateKeyToAddress(keccak256(toHex('out-of-order-ranges-wallet'))));
  let database: TestDatabase;
  let world: IndexedDevnet;
  let db: Db;
  let identity: RunningIdentity;
  /** Scoring's own wiring of a wallet reading (cache, index, names, chains, identity), as the service opens it. */
  let wallets: WalletResources;

  beforeAll(async () => {
    database = await createTestDatabase();
    world = await startIndexedDevnet({
      devnet: seededDevnetOptions({ seed: 'out-of-order-ranges', anchorTimestamp: ANCHOR, populationSize: 5 }),
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
      confirmations: CONFIRMATIONS,
    });
    // caught up; from here the test commits the ranges, in the order it chooses
    await world.indexer.close();
    db = createPrismaClient(database.url, { maxConnections: 4 });
    identity = await startIdentityService({
      natsUrl: NATS_URL,
      prefix,
      redisUrl: REDIS_URL,
      databaseUrl: database.url,
      registry: world.registry,
      cast: world.devnet.state.cast,
    });
    wallets = await WalletResources.open(
      {
        // the gap is a few devnet blocks: freshness is not what is tested here
        ...WalletReadEnv.parse({ DATABASE_URL: database.url, REDIS_URL, INDEX_MAX_LAG_SECONDS: String(365 * DAY) }),
        NATS_URL,
        NATS_SUBJECT_PREFIX: prefix,
        chains: world.registry,
      },
      'out-of-order-ranges-test',
      console,
    );
  });

  afterAll(async () => {
    await wallets?.close();
    await identity?.close().catch(() => undefined);
    await db?.$disconnect().catch(() => undefined);
    await world?.close();
    await database?.drop().catch(() => undefined);
    await deleteKeysWithPrefix(REDIS_URL, prefix).catch(() => undefined);
  });

  it('counts the money that arrived in the later range once, and reads as it does once the gap is closed', async () => {
    const config = world.registry[0]!;
    const chain = world.devnet.chains.find((c) => c.spec.id === config.id)!;
    const repository = new ChainActivityRepository(db);
    const checkpoint = (await repository.checkpoint(config.id))!.indexedTo;

    // the wallet holds 1 coin from before the window (set, not sent: no flow), then 1 more arrives
    await rpc(chain.rpcUrl, 'anvil_setBalance', [wallet, toHex(ARRIVED)]);
    const sender = privateKeyToAccount(keccak256(toHex('out-of-order-ranges-sender')));
    await rpc(chain.rpcUrl, 'anvil_setBalance', [sender.address, toHex(parseEther('10'))]);
    const hash = await createWalletClient({ account: sender, chain: chain.chain, transport: http(chain.rpcUrl) }).sendTransaction({
      to: wallet,
      value: ARRIVED,
    });
    const reader = createPublicClient({ chain: chain.chain, transport: http(chain.rpcUrl) });
    const { blockNumber: arrivedAt } = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    await rpc(chain.rpcUrl, 'anvil_mine', [toHex(CONFIRMATIONS)]);
    const confirmed = (await reader.getBlockNumber({ cacheTime: 0 })) - BigInt(CONFIRMATIONS);
    expect(confirmed).toBe(arrivedAt);

    // planned as the follower plans: [checkpoint + 1, arrivedAt − 1] and [arrivedAt, confirmed]
    const [earlier, later, ...more] = await repository.planRanges({
      chainId: config.id,
      startBlock: checkpoint + 1n,
      upTo: confirmed,
      rangeSize: Number(arrivedAt - checkpoint - 1n),
      maxPending: 10,
      confirmations: CONFIRMATIONS,
    });
    expect([earlier, later, more]).toEqual([
      { chainId: config.id, fromBlock: checkpoint + 1n, toBlock: arrivedAt - 1n },
      { chainId: config.id, fromBlock: arrivedAt, toBlock: confirmed },
      [],
    ]);

    const read = async (): Promise<WalletView> => (await wallets.reader.readWallets([wallet], { fresh: true })).get(wallet)!;
    const nativeOf = (view: WalletView) => view.chains.find((c) => c.chainId === config.id)!.assets[0]!;

    // the later range first: its flow is in Postgres, the checkpoint stays before it
    expect(await indexRange(world.registry, repository, later!)).toBe(checkpoint);
    const indexed = await repository.balanceFlowsOf([config.id], [wallet]);
    expect(indexed).toEqual([expect.objectContaining({ asset: 'native', amount: ARRIVED, blockNumber: arrivedAt })]);
    const duringGap = await read();

    // the earlier range: the checkpoint moves over both (no block mined in between)
    expect(await indexRange(world.registry, repository, earlier!)).toBe(confirmed);
    const afterGap = await read();

    const { computedAt: _during, ...during } = duringGap;
    const { computedAt: _after, ...after } = afterGap;
    expect(during).toEqual(after);
    // today's 2 coins, of which 1 arrived in the window: the lowest is half of today's value (to the
    // cent); the arrival counted twice would make it 0
    const native = nativeOf(duringGap);
    expect(native).toMatchObject({ amount: String(2n * ARRIVED), priceStatus: 'ok' });
    expect(BigInt(native.valueCents!)).toBeGreaterThan(1n);
    expect([0n, 1n]).toContain(BigInt(native.valueCents!) - 2n * BigInt(native.lowValueCents!));
  });
});
