import { getAddress, type Address } from 'viem';
import { createChainClients } from '@credit/chain/clients';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import { readWalletSnapshot, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { DAY } from '@credit/devnet/seed/time';
import type { CastRole } from '@credit/devnet/state-file';
import { indexerConfig } from '@credit/indexer/config';
import { startIndexer, type RunningIndexer } from '@credit/indexer/indexer';
import { silentLogger } from '@credit/indexer/logger';
import { scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { deleteKeysWithPrefix } from '../src/calibration/redis-cleanup';
import { walletFeaturesWithNotes } from '../src/features/wallet-features';

jest.setTimeout(120_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ANCHOR = 1_780_000_000 - (1_780_000_000 % DAY);
const CONFIRMATIONS = 2;

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

describe('walletFeatures on the seeded devnet (indexed, then read)', () => {
  let devnet: Devnet;
  let database: TestDatabase;
  let indexer: RunningIndexer;
  const prefix = uniquePrefix('scoring');
  let snapshots: WalletSnapshot[];
  let asOf: number;

  const cast = (role: CastRole): Address => getAddress(devnet.state.cast[role]!.address);
  const features = async (role: CastRole) =>
    walletFeaturesWithNotes({ address: cast(role), activity: await indexer.repository.activityAcrossChains(cast(role)), snapshots, asOfSeconds: asOf });

  beforeAll(async () => {
    devnet = await startDevnet(seededDevnetOptions({ seed: 'scoring-test', anchorTimestamp: ANCHOR, populationSize: 10 }));
    const scoring = devnet.chains.filter((c) => c.spec.role === 'scoring');
    const targets = new Map<number, bigint>();
    for (const c of scoring) {
      await rpc(c.rpcUrl, 'anvil_mine', [`0x${CONFIRMATIONS.toString(16)}`]);
      targets.set(c.spec.id, BigInt((await rpc(c.rpcUrl, 'eth_blockNumber', [])) as string) - BigInt(CONFIRMATIONS));
    }
    const registry = registryFromDevnetState(devnet.state, { chainIds: [...targets.keys()] });
    database = await createTestDatabase();
    indexer = await startIndexer(
      indexerConfig({
        DATABASE_URL: database.url,
        REDIS_URL,
        HEALTH_PORT: '0',
        POLL_INTERVAL_MS: '200',
        JOB_LOCK_MS: '1000',
        CHAINS: JSON.stringify(registry),
        CONFIRMATIONS: String(CONFIRMATIONS),
        QUEUE_PREFIX: prefix,
      }),
      { logger: silentLogger },
    );
    const deadline = Date.now() + 60_000;
    for (;;) {
      const cps = await Promise.all([...targets].map(async ([id, target]) => ((await indexer.repository.checkpoint(id))?.indexedTo ?? -1n) >= target));
      if (cps.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error('indexer did not catch up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const roles: CastRole[] = ['healthy_borrower', 'liquidated', 'new_wallet', 'multichain', 'empty'];
    snapshots = await Promise.all([...createChainClients(registry).values()].map((c) => readWalletSnapshot(c, roles.map(cast))));
    asOf = Math.max(...snapshots.map((s) => Number(s.block.timestamp)));
  });

  afterAll(async () => {
    await indexer?.close().catch(() => undefined);
    await database?.drop().catch(() => undefined);
    await deleteKeysWithPrefix(REDIS_URL, prefix).catch(() => undefined);
    await devnet?.stop();
  });

  it('maps the cast to features that tell their stories', async () => {
    const healthy = await features('healthy_borrower');
    expect(healthy.features).toMatchObject({ borrowCount: 13, repayCount: 12, liquidationCount: 0, supplyCount: 1, daysSinceLastLiquidation: null });
    expect(healthy.features.walletAgeDays).toBeGreaterThanOrEqual(4 * 365 - 1);
    expect(healthy.notes).toEqual({ incompletePortfolioChains: [], unreadLendingChains: [], missingSnapshotChains: [] });

    const liquidated = await features('liquidated');
    expect(liquidated.features.liquidationCount).toBe(1);
    expect(liquidated.features.daysSinceLastLiquidation).toBeGreaterThanOrEqual(600 - 1);

    const fresh = await features('new_wallet');
    expect(fresh.features).toMatchObject({ txCount: 1, activeChains: 1, borrowCount: 0, healthFactor: null });
    expect(fresh.features.walletAgeDays).toBeLessThan(3 + (asOf - ANCHOR) / DAY);

    const multichain = await features('multichain');
    expect(multichain.features).toMatchObject({ activeChains: 2, supplyCount: 2, borrowCount: 2, repayCount: 2 });

    const empty = await features('empty');
    expect(empty.features).toMatchObject({ walletAgeDays: 0, txCount: 0, activeChains: 0, totalAssetUsd: 0, assetCount: 0, healthFactor: null });

    expect(scoreWallet(liquidated.features).score).toBeLessThan(scoreWallet(healthy.features).score);
  });
});
