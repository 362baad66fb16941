import { getAddress, type Address } from 'viem';
import { createChainClients } from '@credit/chain/clients';
import { readWalletSnapshot, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import type { CastRole } from '@credit/devnet/state-file';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { walletFeaturesWithNotes } from '../src/features/wallet-features';
import { startIndexedDevnet, type IndexedDevnet, type RunningIndexer } from '@credit/test-world/indexed-devnet';

jest.setTimeout(120_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);

describe('walletFeatures on the seeded devnet (indexed, then read)', () => {
  let world: IndexedDevnet;
  let devnet: Devnet;
  let database: TestDatabase;
  let indexer: RunningIndexer;
  let snapshots: WalletSnapshot[];
  let asOf: number;

  const cast = (role: CastRole): Address => getAddress(devnet.state.cast[role]!.address);
  const features = async (role: CastRole) =>
    walletFeaturesWithNotes({
      address: cast(role),
      activity: await indexer.repository.activityAcrossChains(cast(role)),
      lendingEvents: await indexer.repository.lendingEventsOf(
        snapshots.map((s) => s.chainId),
        [cast(role)],
      ),
      balanceFlows: await indexer.repository.balanceFlowsOf(
        snapshots.map((s) => s.chainId),
        [cast(role)],
      ),
      interactions: await indexer.repository.interactionsOf(
        snapshots.map((s) => s.chainId),
        [cast(role)],
      ),
      snapshots,
      asOfSeconds: asOf,
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    world = await startIndexedDevnet({
      devnet: seededDevnetOptions({ seed: 'scoring-test', anchorTimestamp: ANCHOR, populationSize: 10 }),
      databaseUrl: database.url,
      redisUrl: REDIS_URL,
    });
    ({ devnet, indexer } = world);
    const registry = world.registry;
    const roles: CastRole[] = ['healthy_borrower', 'liquidated', 'new_wallet', 'multichain', 'empty'];
    snapshots = await Promise.all([...createChainClients(registry).values()].map((c) => readWalletSnapshot(c, roles.map(cast))));
    asOf = Math.max(...snapshots.map((s) => Number(s.block.timestamp)));
  });

  afterAll(async () => {
    await world?.close();
    await database?.drop().catch(() => undefined);
  });

  it('maps the cast to features that tell their stories', async () => {
    const healthy = await features('healthy_borrower');
    expect(healthy.features).toMatchObject({
      borrowCount: 13,
      repayCount: 12,
      liquidationCount: 0,
      supplyCount: 1,
      daysSinceLastLiquidation: null,
      // its borrowing record from the pool's events: twelve DAI loans of 12,000 + 1,500 k, each
      // repaid in full after 30–60 days, and the open 20,000
      borrowedUsd: 263_000,
      repaidUsd: 243_000,
      loansRepaid: 12,
    });
    expect(healthy.features.repaidUsdDays).toBeGreaterThan(243_000 * 30);
    expect(healthy.features.repaidUsdDays).toBeLessThan(243_000 * 60);
    expect(healthy.features.walletAgeDays).toBeGreaterThanOrEqual(4 * 365 - 1);
    expect(healthy.notes).toEqual({
      incompletePortfolioChains: [],
      unreadLendingChains: [],
      missingSnapshotChains: [],
      unvaluedLendingChains: [],
    });

    const liquidated = await features('liquidated');
    expect(liquidated.features.liquidationCount).toBe(1);
    expect(liquidated.features.daysSinceLastLiquidation).toBeGreaterThanOrEqual(600 - 1);

    const fresh = await features('new_wallet');
    expect(fresh.features).toMatchObject({ txCount: 1, activeChains: 1, borrowCount: 0, healthFactor: null });
    expect(fresh.features.walletAgeDays).toBeLessThan(3 + (asOf - ANCHOR) / DAY);

    const multichain = await features('multichain');
    expect(multichain.features).toMatchObject({ activeChains: 2, supplyCount: 2, borrowCount: 2, repayCount: 2 });

    const empty = await features('empty');
    expect(empty.features).toMatchObject({
      walletAgeDays: 0,
      txCount: 0,
      activeChains: 0,
      totalAssetUsd: 0,
      assetCount: 0,
      healthFactor: null,
    });

    // debt-free 600 days on, it is scored on the no-debt card; a month after its liquidation it sat below the healthy borrower
    expect(scoreWallet(liquidated.features).segment).toBe('noDebt');
    expect(scoreWallet({ ...liquidated.features, daysSinceLastLiquidation: 30 }).score).toBeLessThan(scoreWallet(healthy.features).score);
  });
});
