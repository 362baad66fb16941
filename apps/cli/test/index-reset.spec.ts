import { ChainActivityRepository } from '@credit/db/chain-activity-repository';
import { MarketHistoryReader } from '@credit/db/market-history-reader';
import { createPrismaClient, type Db } from '@credit/db/prisma-client';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { runCapture } from './run-cli-helpers';

jest.setTimeout(60_000);

const HASH = `0x${'ab'.repeat(32)}`;
const ADDRESS = `0x${'12'.repeat(20)}`;

describe('index:reset against Postgres', () => {
  let database: TestDatabase;
  let db: Db;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createPrismaClient(database.url);
    env = {
      DATABASE_URL: database.url,
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_SUBJECT_PREFIX: 'unused',
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
  });

  afterAll(async () => {
    await db?.$disconnect();
    await database?.drop();
  });

  it('deletes a chain indexed before its market history, which the score history then accepts again; other chains keep theirs', async () => {
    const repository = new ChainActivityRepository(db);
    for (const chainId of [7, 8]) {
      await repository.ensureChainIdentity(chainId, HASH);
      await repository.planRanges({ chainId, startBlock: 1n, upTo: 10n, rangeSize: 10, maxPending: 10, confirmations: 0 });
      await repository.writeRange({
        chainId,
        fromBlock: 1n,
        toBlock: 10n,
        toBlockHash: HASH as `0x${string}`,
        toBlockTimestamp: 1_700_000_000,
        transactions: [
          {
            txHash: HASH as `0x${string}`,
            blockNumber: 5n,
            txIndex: 0,
            timestamp: 1_700_000_000,
            from: ADDRESS as `0x${string}`,
            to: null,
          },
        ],
        logs: [],
      });
      await repository.advanceCheckpoint(chainId);
    }
    // as the migration leaves a chain indexed before the market history was
    await db.$executeRawUnsafe('UPDATE indexer_chains SET market_history_complete = false');
    const market = new MarketHistoryReader(db);
    expect(await market.incompleteChains([7, 8])).toEqual([7, 8]);

    const run = await runCapture(['index:reset', '--chain', '7'], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toEqual({ chain_id: 7, reset: true, indexed_to_before: '10' });
    expect(await repository.checkpoint(7)).toBeNull();
    expect(await db.chainTransaction.count({ where: { chainId: 7 } })).toBe(0);
    expect(await market.incompleteChains([7, 8])).toEqual([8]);
    expect(await db.chainTransaction.count({ where: { chainId: 8 } })).toBe(1);
  });

  it('refuses a chain id that is not one (usage error, nothing deleted)', async () => {
    for (const chain of ['0', 'abc', '1.5', '007']) {
      const run = await runCapture(['index:reset', '--chain', chain], env);
      expect(run.code).toBe(2);
      expect(run.err).toContain('--chain must be a positive chain id');
    }
    expect((await runCapture(['index:reset', '--chain', '-1'], env)).code).toBe(2);
    expect((await runCapture(['index:reset'], env)).code).toBe(2);
  });
});
