import { createPublicClient, getAddress, http } from 'viem';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startIndexer, type RunningIndexer } from '../src/indexer';
import { silentLogger } from '../src/logger';
import { chainTruth } from './chain-oracle';
import { obliterateQueues, testConfig, waitUntilIndexed } from './indexer-harness';

jest.setTimeout(120_000);

const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const CONFIRMATIONS = 2;

/**
 * Two devnet worlds with the same anchor (so the same genesis block) but different seeds: the
 * indexer, pointed at the second after indexing the first into the same database, must notice
 * that the chain no longer has its last indexed block and roll back to where the histories part —
 * never mix the two.
 */
describe('a chain replaced under its id', () => {
  let database: TestDatabase;
  const prefixes: string[] = [];
  const worlds: Devnet[] = [];
  let indexer: RunningIndexer | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await indexer?.kill().catch(() => undefined);
    for (const prefix of prefixes) await obliterateQueues(prefix).catch(() => undefined);
    await Promise.all(worlds.map((w) => w.stop()));
    await database?.drop();
  });

  async function indexWorld(seed: string): Promise<{ world: Devnet; targets: Map<number, bigint> }> {
    const world = await startDevnet({ ...seededDevnetOptions({ seed, anchorTimestamp: ANCHOR, populationSize: 5 }), heartbeat: false });
    worlds.push(world);
    const scoring = world.chains.filter((c) => c.spec.role === 'scoring');
    const targets = new Map<number, bigint>();
    for (const c of scoring) {
      const head = await createPublicClient({ transport: http(c.rpcUrl) }).getBlockNumber();
      targets.set(c.spec.id, head - BigInt(CONFIRMATIONS));
    }
    const prefix = uniquePrefix('rep');
    prefixes.push(prefix);
    indexer = await startIndexer(
      testConfig({
        DATABASE_URL: database.url,
        CHAINS: JSON.stringify(registryFromDevnetState(world.state, { chainIds: [...targets.keys()] })),
        CONFIRMATIONS: String(CONFIRMATIONS),
        QUEUE_PREFIX: prefix,
      }),
      { logger: silentLogger },
    );
    await waitUntilIndexed(indexer, targets);
    return { world, targets };
  }

  it('rolls back to where the two histories part (or starts over) and ends with exactly the second world’s rows', async () => {
    const first = await indexWorld('replaced-a');
    await indexer!.close();
    indexer = undefined;

    const second = await indexWorld('replaced-b');
    // the same genesis: only the history differs
    const [a, b] = await Promise.all(
      [first.world, second.world].map((w) => createPublicClient({ transport: http(w.chains[0]!.rpcUrl) }).getBlock({ blockNumber: 0n })),
    );
    expect(b!.hash).toBe(a!.hash);

    for (const c of second.world.chains.filter((x) => second.targets.has(x.spec.id))) {
      const truth = await chainTruth(c.chain, c.rpcUrl, second.world.contracts[c.spec.id]!, second.targets.get(c.spec.id)!);
      const rows = await indexer!.repository.chainActivity(c.spec.id);
      // every row is the second world's, and every address of the second world has its row
      for (const row of rows) {
        expect({ chain: c.spec.id, address: row.address, activity: row }).toEqual({
          chain: c.spec.id,
          address: row.address,
          activity: { chainId: c.spec.id, address: row.address, ...truth.activity(getAddress(row.address))! },
        });
      }
      const cast = second.world.state.cast.healthy_borrower!.address;
      if (c.spec.id === 1) expect(rows.some((r) => r.address === cast.toLowerCase())).toBe(true);
    }
  });
});
