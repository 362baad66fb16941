import { getAddress, type Address } from 'viem';
import { createChainClients, type ChainClient } from '@credit/chain/clients';
import { registryFromDevnetState } from '@credit/chain/devnet-registry';
import { readWalletSnapshot, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord } from '@credit/db/chain-activity-repository';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { REFERENCE_WORLD, referenceDevnetOptions } from '@credit/devnet/seed/reference-world';
import { seededDevnetOptions } from '@credit/devnet/seed/seed-world';
import type { WorldParams } from '@credit/devnet/seed/world-params';
import type { CastRole } from '@credit/devnet/state-file';
import type { WalletFeatures } from '@credit/score-model/andromeda/features';
import { hasActivity, scoreWallet, type ScoreResult } from '@credit/score-model/andromeda/scorecard';
import { connectNats } from '@credit/rpc/nats-connection';
import { RpcClient } from '@credit/rpc/rpc-client';
import { createTestDatabase, type TestDatabase } from '@credit/testing/test-database';
import { uniquePrefix } from '@credit/testing/unique-prefix';
import { startIdentityService, type RunningIdentity } from '@credit/test-world/identity-service';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { heldNamesOf } from '@credit/test-world/held-names';
import { IdentityServiceAttestations, type IdentityEvidence } from '@credit/wallet/identity-attestations';
import { walletFeaturesWithNotes } from '@credit/scoring/features/wallet-features';
import { replayLendingEvents, type ReplayedEvent } from './event-replay';
import { calibrate, populationOutcomes, withoutLiquidationsFrom, type CalibrationMember, type CalibrationResult } from './population';
import { finaliseScoringChains, startDevnetIndexer, waitUntilIndexed, type RunningIndexer } from '@credit/test-world/indexed-devnet';

const CONFIRMATIONS = 2;

/** The order the model card lists the cast in. */
export const CAST_ORDER: readonly CastRole[] = ['healthy_borrower', 'liquidated', 'multichain', 'ens_holder', 'new_wallet', 'empty'];

export interface CastScore {
  role: CastRole;
  address: Address;
  ens?: string;
  features: WalletFeatures;
  /** null: no activity at all (the API answers 404). */
  result: ScoreResult | null;
}

export interface ReferenceRun {
  /** The chains' head time the population and the cast were scored at (seconds). */
  asOfNow: number;
  /** The features moment T (seconds): the outcome window is (T, T + 90 days] (`outcome.shockAt` in state.json). */
  shockAt: number;
  chainIds: number[];
  /** The population scored at the head: the decile cut-points come from here. */
  now: CalibrationResult;
  /** The population scored on what was on chain before T: the AUC comes from here. */
  preShock: CalibrationResult;
  cast: CastScore[];
  members: { now: CalibrationMember[]; preShock: CalibrationMember[] };
  /** Every repayment and liquidation of the population and the cast, scored before and after (when asked for). */
  replay: ReplayedEvent[];
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

/** The identity service's attestations of every address, asked over NATS as scoring asks them. */
async function attestationsOf(
  addresses: readonly Address[],
  natsUrl: string,
  prefix: string,
): Promise<ReadonlyMap<Address, IdentityEvidence>> {
  const nc = await connectNats({ url: natsUrl, name: 'model-card' });
  try {
    return await new IdentityServiceAttestations(new RpcClient(nc, prefix)).attestationsOf(addresses);
  } finally {
    await nc.close();
  }
}

export interface ReferenceRunOptions {
  redisUrl: string;
  /** The identity service is run on this NATS, under a prefix of its own, for the attestations. */
  natsUrl: string;
  /** Also replay every repayment and liquidation through the pipeline (`replayLendingEvents`). */
  replay?: boolean;
  /**
   * Another world of the same generator instead of the reference world (the evaluation's training
   * and held-out worlds): its seed, population size and world parameters, at the reference anchor.
   */
  world?: { seed: string; populationSize: number; params?: Partial<WorldParams> };
  log?: (message: string) => void;
}

/**
 * andromeda_1.0 on the reference world (packages/devnet/src/seed/reference-world.ts), end to end:
 * an ephemeral devnet, the real indexer into throwaway Postgres databases, the chain readers, the
 * identity service with the providers' stubs (as `pnpm start` runs them on the devnet), the
 * feature mapping the scoring service uses, the model.
 *
 * - "now": the population and the cast as of the world's head (its fixed anchor). The decile
 *   cut-points are measured here, and the cast's scores are what the API answers for them.
 * - "pre-shock" (at T): a second indexer stops at the last block before the features moment T
 *   (per-chain CONFIRMATIONS = head − that block), the snapshots are read at that block, ages are
 *   measured at T. Nothing after T enters; the AUC against the liquidations of the window
 *   (T, T + 90 days] is the model's rank ordering. (Scored "now", the window's liquidations are in
 *   the features themselves: that AUC would measure the leak, not the model.)
 * - with `replay`, every repayment and liquidation is scored one block before and at its block.
 * - with `world`, another world of the generator is run instead (the evaluation's worlds).
 */
export async function runReferenceCalibration(options: ReferenceRunOptions): Promise<ReferenceRun> {
  const log = options.log ?? (() => undefined);
  let devnet: Devnet | undefined;
  const databases: TestDatabase[] = [];
  const indexers: { indexer: RunningIndexer; close(): Promise<void> }[] = [];
  const prefix = uniquePrefix('modelcard');
  let identity: RunningIdentity | undefined;
  try {
    log('starting the reference devnet');
    // seeded afresh, never a saved world: anvil serves past blocks' state (the pre-shock read)
    // only for blocks it mined itself, not for those it loaded
    devnet = await startDevnet(
      options.world === undefined
        ? referenceDevnetOptions()
        : {
            ...seededDevnetOptions({
              seed: options.world.seed,
              anchorTimestamp: REFERENCE_WORLD.anchorTimestamp,
              populationSize: options.world.populationSize,
              ...(options.world.params ? { world: options.world.params } : {}),
            }),
            clockAt: REFERENCE_WORLD.anchorTimestamp,
          },
    );
    const targets = await finaliseScoringChains(devnet, CONFIRMATIONS);
    const chainIds = [...targets.keys()];
    const registry = registryFromDevnetState(devnet.state, { chainIds });
    const outcomes = populationOutcomes(devnet.state.population as Record<string, unknown>[]);
    const shockAt = outcomes[0]!.shockAt;
    if (outcomes.some((o) => o.shockAt !== shockAt)) throw new Error('population entries disagree on the shock time');
    const clients = [...createChainClients(registry).values()];
    const preShockBlocks = new Map<number, bigint>();
    for (const c of clients) preShockBlocks.set(c.config.id, await lastBlockBefore(c, shockAt));

    const startOne = async (confirmations: string): Promise<RunningIndexer> => {
      const db = await createTestDatabase();
      databases.push(db);
      const running = await startDevnetIndexer({ registry, databaseUrl: db.url, redisUrl: options.redisUrl, confirmations });
      indexers.push(running);
      return running.indexer;
    };
    log(
      `indexing chains ${chainIds.join(', ')} up to ${[...targets.values()].join(', ')} (now) and ${[...preShockBlocks.values()].join(', ')} (before the shock)`,
    );
    const heads = new Map([...targets].map(([id, target]) => [id, target + BigInt(CONFIRMATIONS)]));
    const indexer = await startOne(String(CONFIRMATIONS));
    const preShockIndexer = await startOne([...preShockBlocks].map(([id, block]) => `${id}=${heads.get(id)! - block}`).join(','));
    await Promise.all([waitUntilIndexed(indexer, targets, 10 * 60_000), waitUntilIndexed(preShockIndexer, preShockBlocks, 10 * 60_000)]);
    log('indexed');

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
    const castEntries = CAST_ORDER.flatMap((role) => {
      const member = devnet!.state.cast[role];
      return member === undefined
        ? []
        : [{ role, address: getAddress(member.address), ...(member.ens !== undefined ? { ens: member.ens } : {}) }];
    });
    const addresses: Address[] = [...outcomes.map((o) => o.address), ...castEntries.map((c) => c.address)];
    const eventsOf = (running: RunningIndexer, toBlock?: ReadonlyMap<number, bigint>) =>
      running.repository.lendingEventsOf(chainIds, addresses, toBlock);
    const eventsNow = await eventsOf(indexer);
    const eventsBefore = await eventsOf(preShockIndexer, preShockBlocks);
    const eventsOfAddress = <E extends { address: string }>(events: readonly E[], address: Address) =>
      events.filter((e) => e.address === address.toLowerCase());
    const flowsNow = await indexer.repository.balanceFlowsOf(chainIds, addresses);
    const flowsBefore = await preShockIndexer.repository.balanceFlowsOf(chainIds, addresses, preShockBlocks);
    const dealingsNow = await indexer.repository.interactionsOf(chainIds, addresses);
    const dealingsBefore = await preShockIndexer.repository.interactionsOf(chainIds, addresses, preShockBlocks);
    const names = await heldNamesOf(databases[0]!.url, registry, addresses);
    const activityNow = await activityOf(indexer);
    const activityBefore = await activityOf(preShockIndexer);
    for (const [id, block] of preShockBlocks) {
      const cp = await preShockIndexer.repository.checkpoint(id);
      if (cp === null || cp.indexedTo !== block)
        throw new Error(`pre-shock index of chain ${id} is at ${cp?.indexedTo ?? 'none'}, not block ${block}`);
    }

    // At the pre-shock block the feeds answer what they said then, updated long before in block
    // time: a wide staleness bound values the balances at those answers instead of leaving them out.
    const pastClients = [
      ...createChainClients(registryFromDevnetState(devnet.state, { chainIds, priceMaxAgeSeconds: 6 * 365 * 86_400 })).values(),
    ];
    const now: WalletSnapshot[] = await Promise.all(clients.map((c) => readWalletSnapshot(c, addresses)));
    const asOfNow = Math.max(...now.map((s) => Number(s.block.timestamp)));
    const before: WalletSnapshot[] = await Promise.all(
      pastClients.map((c) =>
        readWalletSnapshot(
          c,
          outcomes.map((o) => o.address),
          { blockNumber: preShockBlocks.get(c.config.id)! },
        ),
      ),
    );
    log('snapshots read');

    // the Trust factor's input, as scoring reads it: the identity service's attestations (the
    // name service on chain, the providers' stubs); the same before the shock (none of them moved)
    identity = await startIdentityService({
      natsUrl: options.natsUrl,
      prefix,
      redisUrl: options.redisUrl,
      databaseUrl: databases[0]!.url,
      registry,
      cast: devnet.state.cast,
      // an offline measurement on a loaded machine: the local stubs may answer late, never wrongly
      env: { IDENTITY_SOURCE_TIMEOUT_MS: '30000' },
    });
    const attestations = await attestationsOf(addresses, options.natsUrl, prefix);
    log('attestations read');

    const featuresNow = (address: Address) =>
      walletFeaturesWithNotes({
        address,
        activity: activityNow.get(address.toLowerCase()) ?? [],
        snapshots: now,
        asOfSeconds: asOfNow,
        attestations: attestations.get(address)!,
        names: names.get(address) ?? [],
        lendingEvents: eventsOfAddress(eventsNow, address),
        balanceFlows: eventsOfAddress(flowsNow, address),
        interactions: eventsOfAddress(dealingsNow, address),
      }).features;
    const nowMembers: CalibrationMember[] = outcomes.map((o) => ({
      address: o.address,
      features: featuresNow(o.address),
      liquidated: o.liquidated,
    }));
    const preShockMembers: CalibrationMember[] = outcomes.map((o) => ({
      address: o.address,
      ...(o.ceiling !== undefined ? { ceiling: o.ceiling } : {}),
      ...(o.ceilingWallet !== undefined ? { ceilingWallet: o.ceilingWallet } : {}),
      features: walletFeaturesWithNotes({
        address: o.address,
        activity: withoutLiquidationsFrom(activityBefore.get(o.address.toLowerCase()) ?? [], shockAt),
        snapshots: before,
        asOfSeconds: shockAt,
        attestations: attestations.get(o.address)!,
        names: names.get(o.address) ?? [],
        lendingEvents: eventsOfAddress(eventsBefore, o.address),
        balanceFlows: eventsOfAddress(flowsBefore, o.address),
        interactions: eventsOfAddress(dealingsBefore, o.address),
      }).features,
      liquidated: o.liquidated,
    }));
    const cast: CastScore[] = castEntries.map((c) => {
      const features = featuresNow(c.address);
      return { ...c, features, result: hasActivity(features) ? scoreWallet(features) : null };
    });
    const replay = options.replay
      ? await replayLendingEvents({
          index: indexer.repository,
          clients: new Map(pastClients.map((c) => [c.config.id, c])),
          addresses,
          attestations,
          names,
          log,
        })
      : [];
    return {
      asOfNow,
      shockAt,
      chainIds,
      now: calibrate(nowMembers),
      preShock: calibrate(preShockMembers),
      cast,
      members: { now: nowMembers, preShock: preShockMembers },
      replay,
    };
  } finally {
    await identity?.close();
    await deleteKeysWithPrefix(options.redisUrl, prefix).catch(() => undefined);
    await Promise.all(indexers.map((i) => i.close()));
    await Promise.all(databases.map((d) => d.drop().catch(() => undefined)));
    await devnet?.stop().catch(() => undefined);
  }
}
