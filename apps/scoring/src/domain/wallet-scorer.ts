import { getAddress, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import { readWalletSnapshotOnChains, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord, CheckpointRecord } from '@credit/db/chain-activity-repository';
import { indexFreshness } from '@credit/db/index-freshness';
import { DomainError } from '@credit/contracts/errors';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { walletFeaturesWithNotes, type WalletFeaturesNotes } from '../features/wallet-features';
import type { ScoreCache } from './score-cache';
import { upstream, type UpstreamLogger } from './upstream';
import { NO_ACTIVITY, type ScoredWallet, type WalletOutcome } from './wallet-outcome';

/** The part of the indexer's repository scoring reads, each in one query. */
export interface ActivitySource {
  /** Every chain's activity rows of many addresses. */
  activityOfAddresses(addresses: string[]): Promise<AddressActivityRecord[]>;
  /** How far the indexer has got on each chain (absent: never started). */
  checkpoints(chainIds: readonly number[]): Promise<ReadonlyMap<number, CheckpointRecord>>;
}

export interface ScorerLogger extends UpstreamLogger {
  debug(message: string): void;
}

export interface WalletScorerDeps {
  cache: ScoreCache;
  activity: ActivitySource;
  /** The chains a score reads: every chain of the registry (the payment chain is not in it). */
  chains: readonly ChainClient[];
  /**
   * How much history (seconds, from the last indexed block to the head) the indexer may be missing
   * beyond its confirmation depth before scores on the chain are refused (503): history that stops
   * short of the head would score an active wallet as new or empty.
   */
  maxIndexLagSeconds: number;
  /** The wall clock, for `computedAt` only (a score itself is a function of chain state). */
  now: () => Date;
  logger: ScorerLogger;
}

/**
 * The one data path behind every score subject. For a set of checksummed addresses:
 * 1. the cache (one MGET): a hit answers with no JSON-RPC request and no query;
 * 2. for the misses together: their indexed activity (ONE query) and their current state (ONE
 *    multicall eth_call per chain, `readWalletSnapshotOnChains`), in parallel;
 * 3. the moment of scoring is the NEWEST head among the chains read, not the wall clock: a score
 *    is a function of chain state (on a live chain the head is about now);
 * 4. features → andromeda_1.0; a wallet without any activity or holding is "no activity";
 * 5. every new outcome is cached (one pipeline), "no activity" included.
 * A chain whose index is not fresh (`indexFreshness`: still building, behind by more than
 * `maxIndexLagSeconds`, or ahead of a head that went back) answers 503 naming the chain instead of
 * a score on incomplete history, and nothing is cached; concurrent misses for one address share
 * one computation.
 * A failing chain or database answers 503 `service_unavailable` (`upstream`); nothing is made up
 * in its place and nothing is cached.
 */
export class WalletScorer {
  /** Addresses being computed right now, so concurrent misses for one wallet compute it once. */
  private readonly inflight = new Map<Address, Promise<WalletOutcome>>();

  constructor(private readonly deps: WalletScorerDeps) {}

  async scoreWallets(addresses: readonly Address[]): Promise<Map<Address, WalletOutcome>> {
    const unique = [...new Set(addresses)];
    const outcomes = await this.deps.cache.getWallets(unique);
    const misses = unique.filter((a) => !outcomes.has(a));
    if (misses.length === 0) return outcomes;

    const waiting = new Map<Address, Promise<WalletOutcome>>();
    const toCompute = misses.filter((a) => {
      const running = this.inflight.get(a);
      if (running) waiting.set(a, running);
      return running === undefined;
    });
    if (toCompute.length > 0) {
      const batch = this.compute(toCompute).then(async (fresh) => {
        await this.deps.cache.setWallets(fresh);
        return fresh;
      });
      for (const address of toCompute) {
        const one = batch.then((fresh) => fresh.get(address)!);
        one.catch(() => undefined); // awaited below; a concurrent caller may never await it
        this.inflight.set(address, one);
        waiting.set(address, one);
      }
      void batch.then(
        () => toCompute.forEach((a) => this.inflight.delete(a)),
        () => toCompute.forEach((a) => this.inflight.delete(a)),
      );
    }
    for (const [address, outcome] of waiting) outcomes.set(address, await outcome);
    return outcomes;
  }

  private async compute(addresses: Address[]): Promise<Map<Address, WalletOutcome>> {
    const chainIds = this.deps.chains.map((c) => c.config.id);
    const [rows, snapshots, checkpoints] = await Promise.all([
      upstream('the activity index', this.deps.logger, () => this.deps.activity.activityOfAddresses(addresses)),
      upstream('the chains', this.deps.logger, () => readWalletSnapshotOnChains(this.deps.chains, addresses)),
      upstream('the activity index', this.deps.logger, () => this.deps.activity.checkpoints(chainIds)),
    ]);
    const chainSnapshots = [...snapshots.values()];
    this.assertIndexed(chainSnapshots, checkpoints);
    const computedAt = this.deps.now().toISOString();
    const asOfSeconds = asOfSecondsOf(chainSnapshots);
    const asOf = new Date(asOfSeconds * 1000).toISOString();

    const rowsByAddress = new Map<Address, AddressActivityRecord[]>();
    for (const row of rows) {
      const address = getAddress(row.address);
      const list = rowsByAddress.get(address);
      if (list) list.push(row);
      else rowsByAddress.set(address, [row]);
    }

    const fresh = new Map<Address, WalletOutcome>();
    for (const address of addresses) {
      const { features, notes } = walletFeaturesWithNotes({
        address,
        activity: rowsByAddress.get(address) ?? [],
        snapshots: chainSnapshots,
        asOfSeconds,
      });
      this.logNotes(address, notes);
      if (!hasActivity(features)) {
        fresh.set(address, NO_ACTIVITY);
        continue;
      }
      const result = scoreWallet(features);
      const scored: ScoredWallet = {
        score: result.score,
        factors: result.factors.map((f) => ({ label: f.label, points: f.points, rating: f.rating, reasons: [...f.reasons] })),
        computedAt,
        asOf,
      };
      fresh.set(address, scored);
    }
    return fresh;
  }

  /** Every chain read must have a fresh index, judged against the head the snapshot saw. */
  private assertIndexed(snapshots: readonly WalletSnapshot[], checkpoints: ReadonlyMap<number, CheckpointRecord>): void {
    for (const snapshot of snapshots) {
      const verdict = indexFreshness(snapshot.chainId, snapshot.block, checkpoints.get(snapshot.chainId), this.deps.maxIndexLagSeconds);
      if (!verdict.fresh) throw new DomainError('service_unavailable', verdict.reason);
    }
  }

  private logNotes(address: Address, notes: WalletFeaturesNotes): void {
    const parts = Object.entries(notes)
      .filter(([, chains]) => chains.length > 0)
      .map(([note, chains]) => `${note}=${(chains as number[]).join(',')}`);
    if (parts.length > 0) this.deps.logger.debug(`${address}: incomplete reading (${parts.join('; ')})`);
  }
}

/** The moment of scoring for a set of chain snapshots: the newest head among them, unix seconds. */
export function asOfSecondsOf(snapshots: Iterable<WalletSnapshot>): number {
  return Math.max(...[...snapshots].map((s) => Number(s.block.timestamp)));
}
