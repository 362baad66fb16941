import type { Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import { readAtHead, type IndexEnd } from '@credit/chain/head-reading';
import type { WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type {
  AddressActivityRecord,
  BalanceFlowRecord,
  CheckpointRecord,
  InteractionRecord,
  LendingEventRecord,
} from '@credit/db/chain-activity-types';
import type { EnsNamesReader } from '@credit/db/ens-names-reader';
import { indexFreshness } from '@credit/db/index-freshness';
import { DomainError } from '@credit/contracts/errors';
import { countCacheLookups } from '@credit/observability/cache-metrics';
import { withSpan } from '@credit/telemetry/tracing';
import type { AttestationSource } from './identity-attestations';
import type { WalletCache } from './wallet-cache';
import { upstream, type UpstreamLogger } from './upstream';
import { walletViewsOf, type WalletView } from './wallet-view';

/** The part of the indexer's repository a wallet reading needs, each in one query. */
export interface ActivitySource {
  /** Every chain's activity rows of many addresses. */
  activityOfAddresses(addresses: string[]): Promise<AddressActivityRecord[]>;
  /** Their borrow, repay and liquidation events on the chains. */
  lendingEventsOf(chainIds: readonly number[], addresses: readonly string[]): Promise<LendingEventRecord[]>;
  /** The movements in and out of their balances over the index's last month. */
  balanceFlowsOf(chainIds: readonly number[], addresses: readonly string[]): Promise<BalanceFlowRecord[]>;
  /** Their dealings with other addresses. */
  interactionsOf(chainIds: readonly number[], addresses: readonly string[]): Promise<InteractionRecord[]>;
  /** How far the indexer has got on each chain (absent: never started). */
  checkpoints(chainIds: readonly number[]): Promise<ReadonlyMap<number, CheckpointRecord>>;
}

export interface WalletReaderDeps {
  cache: WalletCache;
  activity: ActivitySource;
  /** The name index: the names each address owns and since when (read on the chain with ENS). */
  names: Pick<EnsNamesReader, 'heldNames'>;
  /** The chains a wallet is read on: every chain of the registry (the payment chain is not in it). */
  chains: readonly ChainClient[];
  /** The identity service: every address's attestations, complete or a 503. */
  attestations: AttestationSource;
  /**
   * How much history (seconds, from the last indexed block to the head) the indexer may be missing
   * beyond its confirmation depth before readings on the chain are refused (503): history that
   * stops short of the head would show an active wallet as new or empty.
   */
  maxIndexLagSeconds: number;
  /** The wall clock, for `computedAt` only (a view itself is a function of chain state). */
  now: () => Date;
  logger: UpstreamLogger;
}

export interface ReadOptions {
  /** Skip the cache's answer and read the chains again (the enhanced report); the new view is cached. */
  fresh?: boolean;
}

/**
 * The one data path behind every score and report subject. For a set of checksummed addresses:
 * 1. the cache (one MGET): a hit answers with no JSON-RPC request and no query;
 * 2. for the misses together: their indexed activity and their lending events (ONE query each),
 *    the indexer's checkpoints (ONE query) and their identity attestations (ONE request to the
 *    identity service), in parallel; as soon as the checkpoints are in, each chain in ONE JSON-RPC
 *    round trip (`readAtHead`): the multicall of their current state at the head and the blocks
 *    between the index and that head, for what moved in and out of the balances there (money
 *    that arrived in them counts as just arrived); a chain that does not answer is named in the
 *    503, and so is an identity answer that lacks a source;
 * 3. every chain's index must be fresh against the head its snapshot saw (`indexFreshness`: still
 *    building, behind by more than `maxIndexLagSeconds`, or ahead of a head that went back → 503
 *    naming the chain), else nothing is returned and nothing cached: no view on partial history;
 * 4. the views (`walletViewsOf`) are cached (one pipeline), empty wallets included.
 * Concurrent misses for one address share one reading. A failing chain or database answers 503
 * `service_unavailable` (`upstream`); nothing is made up in its place and nothing is cached.
 */
export class WalletReader {
  /** Addresses being read right now, so concurrent misses for one wallet read it once. */
  private readonly inflight = new Map<Address, Promise<WalletView>>();

  constructor(private readonly deps: WalletReaderDeps) {}

  async readWallets(addresses: readonly Address[], options: ReadOptions = {}): Promise<Map<Address, WalletView>> {
    const unique = [...new Set(addresses)];
    const views = options.fresh ? new Map<Address, WalletView>() : await this.cached(unique);
    const misses = unique.filter((a) => !views.has(a));
    if (misses.length === 0) return views;

    const waiting = new Map<Address, Promise<WalletView>>();
    const toRead = misses.filter((a) => {
      const running = this.inflight.get(a);
      if (running) waiting.set(a, running);
      return running === undefined;
    });
    if (toRead.length > 0) {
      const batch = this.read(toRead).then(async (fresh) => {
        await this.deps.cache.setWallets(fresh);
        return fresh;
      });
      for (const address of toRead) {
        const one = batch.then((fresh) => fresh.get(address)!);
        one.catch(() => undefined); // awaited below; a concurrent caller may never await it
        this.inflight.set(address, one);
        waiting.set(address, one);
      }
      const settle = () => toRead.forEach((a) => this.inflight.delete(a));
      void batch.then(settle, settle);
    }
    for (const [address, view] of waiting) views.set(address, await view);
    return views;
  }

  /** The cache's views that cover exactly the chains read now (a view from before a registry change is a miss), counted as hits and misses. */
  private async cached(addresses: Address[]): Promise<Map<Address, WalletView>> {
    const chainIds = this.deps.chains.map((c) => c.config.id).join(',');
    const views = await this.deps.cache.getWallets(addresses);
    for (const [address, view] of views) if (view.chains.map((c) => c.chainId).join(',') !== chainIds) views.delete(address);
    countCacheLookups('wallet_view', views.size, addresses.length - views.size);
    return views;
  }

  private async read(addresses: Address[]): Promise<Map<Address, WalletView>> {
    const chainIds = this.deps.chains.map((c) => c.config.id);
    const ensChain = this.deps.chains.find((c) => c.config.ens?.registry !== undefined);
    const index = this.deps.activity;
    const logger = this.deps.logger;
    const indexedTo = stage('checkpoints', () => upstream('the activity index', logger, () => index.checkpoints(chainIds)));
    // each chain in ONE round trip once the index's end is known: the multicall at the head and
    // the blocks past the index with what moved in and out of the balances there (`readAtHead`),
    // each failing under its chain's name; a longer tail is read only if the index is fresh
    const atHead = indexedTo.then((indexed) =>
      stage('chain state', () =>
        Promise.all(
          this.deps.chains.map((c) =>
            upstream(`chain ${c.config.id} (${c.config.name})`, logger, () =>
              readAtHead(c, addresses, indexEndOf(indexed.get(c.config.id)), {
                beforeMore: (snapshot) => this.assertIndexed([snapshot], indexed),
              }),
            ),
          ),
        ),
      ),
    );
    const heads = atHead.then((readings) => readings.map((r) => r.snapshot));
    const tail = atHead.then((readings) => readings.map((r) => r.tail));
    const [activity, lendingEvents, flows, interactions, names, snapshots, checkpoints, tails, attestations] = await Promise.allSettled([
      stage('activity', () => upstream('the activity index', logger, () => index.activityOfAddresses(addresses))),
      stage('lending events', () => upstream('the activity index', logger, () => index.lendingEventsOf(chainIds, addresses))),
      stage('balance flows', () => upstream('the activity index', logger, () => index.balanceFlowsOf(chainIds, addresses))),
      stage('interactions', () => upstream('the activity index', logger, () => index.interactionsOf(chainIds, addresses))),
      stage('names', () =>
        upstream('the activity index', logger, async () =>
          ensChain === undefined
            ? new Map<string, { name: string; since: number }[]>()
            : this.deps.names.heldNames(ensChain.config.id, addresses),
        ),
      ),
      heads,
      indexedTo,
      tail,
      stage('attestations', () => this.deps.attestations.attestationsOf(addresses)),
    ]);
    // every read settled, then the first failure in a fixed order (the index, the chains, their
    // freshness, the blocks past the index, the identity service), so a 503 names the same cause
    // whichever answered first
    const read = valueOf(activity);
    const events = valueOf(lendingEvents);
    const indexedFlows = valueOf(flows);
    const dealings = valueOf(interactions);
    const held = valueOf(names);
    const headsRead = valueOf(snapshots);
    const indexed = valueOf(checkpoints);
    this.assertIndexed(headsRead, indexed);
    const tailFlows = valueOf(tails);
    // The index's flows up to its checkpoint only: a range committed before an earlier one is in
    // the table already, and its blocks are past the checkpoint, so the tail read them too.
    const flowsUpToCheckpoint = indexedFlows.filter((f) => f.blockNumber <= (indexed.get(f.chainId)?.indexedTo ?? -1n));
    return stage('views', async () =>
      walletViewsOf({
        addresses,
        activity: read,
        lendingEvents: events,
        balanceFlows: [...flowsUpToCheckpoint, ...tailFlows.flat()],
        interactions: dealings,
        snapshots: headsRead,
        attestations: valueOf(attestations),
        names: new Map(addresses.map((a) => [a, held.get(a.toLowerCase()) ?? []])),
        computedAt: this.deps.now().toISOString(),
      }),
    );
  }

  /** Every chain read must have a fresh index, judged against the head the snapshot saw. */
  private assertIndexed(snapshots: readonly WalletSnapshot[], checkpoints: ReadonlyMap<number, CheckpointRecord>): void {
    for (const snapshot of snapshots) {
      const verdict = indexFreshness(snapshot.chainId, snapshot.block, checkpoints.get(snapshot.chainId), this.deps.maxIndexLagSeconds);
      if (!verdict.fresh) throw new DomainError('service_unavailable', verdict.reason);
    }
  }
}

/**
 * One stage of a reading as a span (`wallet activity`, `wallet chain state`, `wallet views`, …)
 * while tracing is on, so a trace shows where a cold reading's time goes (`pnpm bench:scoring`
 * sums them by stage); with tracing off, a plain call.
 */
function stage<T>(name: string, fn: () => Promise<T>): Promise<T> {
  return withSpan(`wallet ${name}`, {}, fn);
}

/** Where a chain's index ends, once it has indexed anything (else the reading is refused as still building). */
function indexEndOf(checkpoint: CheckpointRecord | undefined): IndexEnd | undefined {
  if (checkpoint === undefined || checkpoint.indexedToAt === null) return undefined;
  return { indexedTo: checkpoint.indexedTo, confirmations: checkpoint.confirmations };
}

/** A settled read's value, or its failure thrown. */
function valueOf<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
