import { getAddress, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import { readWalletSnapshotOnChains, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { AddressActivityRecord } from '@credit/db/chain-activity-repository';
import { hasActivity, scoreWallet } from '@credit/score-model/andromeda/scorecard';
import { walletFeaturesWithNotes, type WalletFeaturesNotes } from '../features/wallet-features';
import type { ScoreCache } from './score-cache';
import { upstream, type UpstreamLogger } from './upstream';
import { NO_ACTIVITY, type ScoredWallet, type WalletOutcome } from './wallet-outcome';

/** The part of the indexer's repository scoring reads: every chain's activity of many addresses, in one query. */
export interface ActivitySource {
  activityOfAddresses(addresses: string[]): Promise<AddressActivityRecord[]>;
}

export interface ScorerLogger extends UpstreamLogger {
  debug(message: string): void;
}

export interface WalletScorerDeps {
  cache: ScoreCache;
  activity: ActivitySource;
  /** The chains a score reads: every chain of the registry (the payment chain is not in it). */
  chains: readonly ChainClient[];
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
 * A failing chain or database answers 503 `service_unavailable` (`upstream`); nothing is made up
 * in its place and nothing is cached.
 */
export class WalletScorer {
  constructor(private readonly deps: WalletScorerDeps) {}

  async scoreWallets(addresses: readonly Address[]): Promise<Map<Address, WalletOutcome>> {
    const unique = [...new Set(addresses)];
    const outcomes = await this.deps.cache.getWallets(unique);
    const misses = unique.filter((a) => !outcomes.has(a));
    if (misses.length === 0) return outcomes;

    const fresh = await this.compute(misses);
    await this.deps.cache.setWallets(fresh);
    for (const [address, outcome] of fresh) outcomes.set(address, outcome);
    return outcomes;
  }

  private async compute(addresses: Address[]): Promise<Map<Address, WalletOutcome>> {
    const [rows, snapshots] = await Promise.all([
      upstream('the activity index', this.deps.logger, () => this.deps.activity.activityOfAddresses(addresses)),
      upstream('the chains', this.deps.logger, () => readWalletSnapshotOnChains(this.deps.chains, addresses)),
    ]);
    const computedAt = this.deps.now().toISOString();
    const chainSnapshots = [...snapshots.values()];
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
