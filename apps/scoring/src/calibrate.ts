/**
 * Calibration run of andromeda_1.0 on the devnet's reference population (issue 4):
 *
 *   node apps/scoring/dist/calibrate.js [populationSize=300]
 *
 * Starts an ephemeral seeded devnet (no state dir), indexes its scoring chains with the indexer
 * into a throwaway Postgres database (`createTestDatabase`, dropped at the end) under a unique
 * BullMQ prefix, reads every population wallet's snapshot, maps activity + snapshot to
 * `WalletFeatures`, scores them and prints the nine decile cut-points and the AUC of
 * (1000 − score) against the recorded liquidation after the shock.
 *
 * Two feature sets are scored:
 * - "now": everything as of the chains' head. It LEAKS the outcome: the shock's liquidations are in
 *   the activity (liquidationCount, daysSinceLastLiquidation) and the lending positions are the
 *   ones left after liquidation.
 * - "pre-shock": a SECOND indexer, into its own throwaway database, indexes each chain only up to
 *   the last block before the shock (its per-chain CONFIRMATIONS = head − that block), so the
 *   activity is exactly what was on chain then; the wallet snapshots are read at that same block
 *   (historical state of the node) with a wide price staleness bound (the feeds' answers then);
 *   ages are measured at the shock. No post-shock information enters these features.
 *
 * Needs Redis (REDIS_URL, default redis://127.0.0.1:6379) and Postgres (TEST_DATABASE_ADMIN_URL,
 * see @credit/testing/test-database) and anvil on the PATH.
 */
import type { Address } from 'viem';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import { readWalletSnapshot, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord } from '@credit/db/chain-activity-repository';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import { indexerConfig } from '@credit/indexer/config';
import { startIndexer, type RunningIndexer } from '@credit/indexer/indexer';
import { silentLogger } from '@credit/indexer/logger';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { deleteKeysWithPrefix } from './calibration/redis-cleanup';
import { walletFeaturesWithNotes } from './features/wallet-features';
import { calibrate, populationOutcomes, withoutLiquidationsFrom, type CalibrationMember, type CalibrationResult, type PopulationOutcome } from './calibration/population';

const CONFIRMATIONS = 2;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function waitUntilIndexed(indexer: RunningIndexer, targets: ReadonlyMap<number, bigint>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await Promise.all([...targets].map(async ([chainId, target]) => ({ chainId, target, cp: await indexer.repository.checkpoint(chainId) })));
    if (status.every((s) => s.cp !== null && s.cp.indexedTo >= s.target)) return;
    if (Date.now() > deadline) throw new Error(`not caught up: ${status.map((s) => `chain ${s.chainId} at ${s.cp?.indexedTo ?? 'none'} of ${s.target}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The last block with a timestamp before `seconds` (binary search over block numbers). */
async function lastBlockBefore(chain: ChainClient, seconds: number): Promise<bigint> {
  let lo = 0n;
  let hi = await chain.client.getBlockNumber();
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    const block = await chain.client.getBlock({ blockNumber: mid });
    if (block.timestamp < BigInt(seconds)) lo = mid;
    else hi = mid - 1n;
  }
  return lo;
}

function printResult(label: string, result: CalibrationResult): void {
  const fmt = (x: number | null, digits: number) => (x === null ? 'n/a' : x.toFixed(digits));
  console.log(`\n== ${label} ==`);
  console.log(`population ${result.population}, liquidated after the shock ${result.liquidated}`);
  console.log(`decile cut-points: [${result.cutPoints.join(', ')}]`);
  console.log(`AUC of (1000 - score) vs liquidated (Mann-Whitney): ${fmt(result.auc, 4)}`);
  console.log(`mean score: liquidated ${fmt(result.meanScoreLiquidated, 1)}, others ${fmt(result.meanScoreOthers, 1)}`);
  const sorted = result.scores.map((s) => s.score).sort((a, b) => a - b);
  console.log(`AUC of each factor alone: ${Object.entries(result.factorAuc).map(([label, auc]) => `${label} ${fmt(auc, 3)}`).join(', ')}`);
  console.log(`score range ${sorted[0]}..${sorted[sorted.length - 1]}, median ${sorted[Math.floor(sorted.length / 2)]}`);
}

async function main(): Promise<void> {
  const populationSize = Number(process.argv[2] ?? process.env.POPULATION_SIZE ?? 300);
  if (!Number.isInteger(populationSize) || populationSize < 10) throw new Error(`population size must be an integer ≥ 10, got ${process.argv[2]}`);
  const started = Date.now();
  const log = (message: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);

  let devnet: Devnet | undefined;
  const databases: TestDatabase[] = [];
  const indexers: RunningIndexer[] = [];
  const prefixes: string[] = [];
  try {
    log(`starting the seeded devnet (population ${populationSize})`);
    devnet = await startDevnet(seededDevnetOptions({ populationSize }));
    const scoring = devnet.chains.filter((c) => c.spec.role === 'scoring');
    const chainIds = scoring.map((c) => c.spec.id);
    const targets = new Map<number, bigint>();
    for (const c of scoring) {
      await rpc(c.rpcUrl, 'anvil_mine', [`0x${CONFIRMATIONS.toString(16)}`]);
      const head = BigInt((await rpc(c.rpcUrl, 'eth_blockNumber', [])) as string);
      targets.set(c.spec.id, head - BigInt(CONFIRMATIONS));
    }
    const registry = registryFromDevnetState(devnet.state, { chainIds });

    const outcomes = populationOutcomes(devnet.state.population as Record<string, unknown>[]);
    const shockAt = outcomes[0]!.shockAt;
    if (outcomes.some((o) => o.shockAt !== shockAt)) throw new Error('population entries disagree on the shock time');
    const clients = [...createChainClients(registry).values()];
    const preShockBlocks = new Map<number, bigint>();
    for (const c of clients) preShockBlocks.set(c.config.id, await lastBlockBefore(c, shockAt));

    const startOne = async (confirmations: string): Promise<RunningIndexer> => {
      const prefix = uniquePrefix('calibrate');
      prefixes.push(prefix);
      const db = await createTestDatabase();
      databases.push(db);
      const running = await startIndexer(
        indexerConfig({
          DATABASE_URL: db.url,
          REDIS_URL,
          HEALTH_PORT: '0',
          POLL_INTERVAL_MS: '200',
          CHAINS: JSON.stringify(registry),
          CONFIRMATIONS: confirmations,
          QUEUE_PREFIX: prefix,
        }),
        { logger: silentLogger },
      );
      indexers.push(running);
      return running;
    };
    log(`indexing chains ${chainIds.join(', ')} up to ${[...targets.values()].join(', ')} (now) and ${[...preShockBlocks.values()].join(', ')} (before the shock)`);
    const heads = new Map([...targets].map(([id, target]) => [id, target + BigInt(CONFIRMATIONS)]));
    const indexer = await startOne(String(CONFIRMATIONS));
    const preShockIndexer = await startOne([...preShockBlocks].map(([id, block]) => `${id}=${heads.get(id)! - block}`).join(','));
    await Promise.all([waitUntilIndexed(indexer, targets, 30 * 60_000), waitUntilIndexed(preShockIndexer, preShockBlocks, 30 * 60_000)]);
    log('indexed');

    const addresses: Address[] = outcomes.map((o) => o.address);
    const activityOf = async (running: RunningIndexer): Promise<Map<string, AddressActivityRecord[]>> => {
      const byAddress = new Map<string, AddressActivityRecord[]>();
      for (const id of chainIds) {
        for (const row of await running.repository.chainActivity(id)) {
          const key = row.address.toLowerCase();
          byAddress.set(key, [...(byAddress.get(key) ?? []), row]);
        }
      }
      return byAddress;
    };
    const activityNow = await activityOf(indexer);
    const activityBefore = await activityOf(preShockIndexer);
    // read, then checked: the pre-shock index must not have moved past the pre-shock blocks
    for (const [id, block] of preShockBlocks) {
      const cp = await preShockIndexer.repository.checkpoint(id);
      if (cp === null || cp.indexedTo !== block) throw new Error(`pre-shock index of chain ${id} is at ${cp?.indexedTo ?? 'none'}, not block ${block}`);
    }

    // At the pre-shock block the feeds answer what they said then, updated long before in block
    // time (seeding travels years forward): a wide staleness bound values the balances at those
    // answers instead of leaving them out.
    const pastClients = [...createChainClients(registryFromDevnetState(devnet.state, { chainIds, priceMaxAgeSeconds: 6 * 365 * 86_400 })).values()];
    const now = await Promise.all(clients.map((c) => readWalletSnapshot(c, addresses)));
    const asOfNow = Math.max(...now.map((s) => Number(s.block.timestamp)));

    let before: WalletSnapshot[];
    let preShockSnapshots = 'read at the last block before the shock';
    try {
      before = await Promise.all(pastClients.map(async (c) => readWalletSnapshot(c, addresses, { blockNumber: preShockBlocks.get(c.config.id)! })));
    } catch (error) {
      preShockSnapshots = `NOT available (${(error as Error).message.split('\n')[0]}); current snapshots used`;
      before = now;
    }
    log(`snapshots read (now at ${new Date(asOfNow * 1000).toISOString()}; shock at ${new Date(shockAt * 1000).toISOString()}; pre-shock snapshots ${preShockSnapshots})`);

    const incomplete = { now: { portfolio: 0, lending: 0 }, before: { portfolio: 0, lending: 0 } };
    const members = (variant: 'now' | 'before'): CalibrationMember[] =>
      outcomes.map((o: PopulationOutcome) => {
        const rows = (variant === 'now' ? activityNow : activityBefore).get(o.address.toLowerCase()) ?? [];
        const { features, notes } = walletFeaturesWithNotes(
          variant === 'now'
            ? { address: o.address, activity: rows, snapshots: now, asOfSeconds: asOfNow }
            : { address: o.address, activity: withoutLiquidationsFrom(rows, shockAt), snapshots: before, asOfSeconds: shockAt },
        );
        if (notes.incompletePortfolioChains.length > 0) incomplete[variant].portfolio += 1;
        if (notes.unreadLendingChains.length > 0) incomplete[variant].lending += 1;
        return { address: o.address, features, liquidated: o.liquidated };
      });

    const nowResult = calibrate(members('now'));
    const beforeResult = calibrate(members('before'));
    console.log(`andromeda_1.0 calibration on the devnet reference population (seed credit-devnet, size ${populationSize})`);
    console.log(`chains ${chainIds.join(', ')}; scored at ${new Date(asOfNow * 1000).toISOString()}; shock at ${new Date(shockAt * 1000).toISOString()}`);
    printResult('features as of now (LEAKS the outcome: the shock liquidations are in the features)', nowResult);
    console.log(`wallets with an incomplete portfolio: ${incomplete.now.portfolio}, with an unread pool: ${incomplete.now.lending}`);
    printResult(`features as of the shock (activity indexed up to the last block before it; snapshots ${preShockSnapshots})`, beforeResult);
    console.log(`wallets with an incomplete portfolio: ${incomplete.before.portfolio}, with an unread pool: ${incomplete.before.lending}`);
  } finally {
    await Promise.all(indexers.map((i) => i.close().catch(() => undefined)));
    await Promise.all(databases.map((d) => d.drop().catch(() => undefined)));
    for (const prefix of prefixes) await deleteKeysWithPrefix(REDIS_URL, prefix).catch((error: unknown) => console.error(`queues ${prefix} left in Redis: ${String(error)}`));
    await devnet?.stop().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
