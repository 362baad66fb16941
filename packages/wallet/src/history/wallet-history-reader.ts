import type { Address } from 'viem';
import { devnetPoolReservesAbi } from '@credit/chain/abis';
import { priceFeedsOf } from '@credit/chain/assets';
import type { ChainClient } from '@credit/chain/clients';
import { combinePlans, executePlan, type CallResult, type PlannedCall, type ReadPlan } from '@credit/chain/multicall';
import { walletSnapshotPlan, type WalletSnapshot } from '@credit/chain/wallet-snapshot-reader';
import type { ChainActivityReader } from '@credit/db/chain-activity-reader';
import type { BalanceFlowRecord, CheckpointRecord } from '@credit/db/chain-activity-types';
import type { EnsNamesReader } from '@credit/db/ens-names-reader';
import type { MarketHistoryReader } from '@credit/db/market-history-reader';
import { DomainError } from '@credit/contracts/errors';
import { BALANCE_WINDOW_DAYS } from '../balance-window';
import type { AttestationSource } from '../identity-attestations';
import { upstream, type UpstreamLogger } from '../upstream';
import { walletViewsOf, type WalletView } from '../wallet-view';
import { marketAt, replayCalls, type MarketHistory, type ReserveParams } from './market-replay';

export const SECONDS_PER_DAY = 86_400;

export interface WalletHistoryDeps {
  chains: readonly ChainClient[];
  index: Pick<ChainActivityReader, 'checkpoints' | 'activityAsOfBlock' | 'lendingEventsOf' | 'balanceFlowsOf' | 'interactionsOf'>;
  market: Pick<MarketHistoryReader, 'incompleteChains' | 'blocksBefore' | 'priceAnswers' | 'lendingMoves' | 'addressBlocks'>;
  names: Pick<EnsNamesReader, 'heldNames'>;
  attestations: AttestationSource;
  now: () => Date;
  logger: UpstreamLogger;
}

/** A past UTC day's reading: the wallet after the day's last indexed block on every chain. */
export interface DayView {
  /** `YYYY-MM-DD`. */
  date: string;
  view: WalletView;
}

/** `YYYY-MM-DD` of a unix second. */
export const dateOf = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The raw answers of a plan's calls (decoded by the plan later, for each day replayed). */
const rawPlan = (calls: readonly PlannedCall[]): ReadPlan<readonly CallResult[]> => ({ calls, decode: (results) => results });

/** Each configured token's reserve at each pool (a token that is not one answers `active` false). */
function reservesPlan(chain: ChainClient): ReadPlan<Map<string, ReserveParams[]>> {
  const { lendingPools, tokens } = chain.config;
  const calls: PlannedCall[] = lendingPools.flatMap((pool) =>
    tokens.map((t): PlannedCall => ({ address: pool.address, abi: devnetPoolReservesAbi, functionName: 'reserves', args: [t.address] })),
  );
  return {
    calls,
    decode(results) {
      return new Map(
        lendingPools.map((pool, p) => {
          const reserves: ReserveParams[] = [];
          for (const [t, token] of tokens.entries()) {
            const r = results[p * tokens.length + t]!;
            if (!r.ok) continue;
            const [active, decimals, priceFeed, ltv, liquidationThreshold] = r.value as readonly [boolean, number, Address, number, number];
            if (active)
              reserves.push({
                asset: token.address,
                decimals,
                priceFeed,
                ltv: BigInt(ltv),
                liquidationThreshold: BigInt(liquidationThreshold),
              });
          }
          return [pool.address.toLowerCase(), reserves];
        }),
      );
    },
  };
}

/**
 * A wallet's past, day by day, from the index alone (issue 38; docs/ARCHITECTURE.md decision 39):
 * each chain's state after the last indexed block of each UTC day is what its snapshot's calls
 * answered at the index's checkpoint, moved back by what the index recorded since (balance flows,
 * feeds' answers, lending moves; `replayCalls`), and its history is the index's as of that block.
 * One multicall per chain at the checkpoint (a full node keeps that state; no archive read), a
 * handful of queries, then the wallet's activity and dealings once per block of its own that
 * ends some day. A day whose end some chain has not indexed yet is refused (503), never read from
 * part of its blocks.
 */
export class WalletHistoryReader {
  constructor(private readonly deps: WalletHistoryDeps) {}

  /** The views of `address` at the end of each UTC day in `dates` (ascending `YYYY-MM-DD`); days before its first activity included (the scorer tells them). */
  async readDays(address: Address, dates: readonly string[]): Promise<DayView[]> {
    if (dates.length === 0) return [];
    const { chains, index, logger } = this.deps;
    const ids = chains.map((c) => c.config.id);
    const { days, upTo, flows } = await this.replayDays(address, dates);
    const [events, attestations, names] = await Promise.all([
      upstream('the activity index', logger, () => index.lendingEventsOf(ids, [address], upTo)),
      this.deps.attestations.attestationsOf([address]),
      this.namesOf(address),
    ]);
    // the wallet's own activity and dealings change only in blocks with a row of its own: each is
    // read as of the last such block at or before the day's (the same rows), once per distinct one
    const own = await Promise.all(
      ids.map((id) => upstream('the activity index', logger, () => this.deps.market.addressBlocks(id, address, upTo.get(id)!))),
    );
    const lastOwn = (chain: number, block: bigint): bigint => {
      const blocks = own[chain]!;
      let found = -1n;
      for (const b of blocks) if (b <= block) found = b;
      return found;
    };
    const activityAt = memo((id: number, block: bigint) =>
      block < 0n ? Promise.resolve([]) : upstream('the activity index', logger, () => index.activityAsOfBlock(id, [address], block)),
    );
    const interactionsAt = memo((bounds: Map<number, bigint>) =>
      [...bounds.values()].every((b) => b < 0n)
        ? Promise.resolve([])
        : upstream('the activity index', logger, () => index.interactionsOf(ids, [address], bounds)),
    );
    const views: DayView[] = [];
    for (const { date, snapshots } of days) {
      const blocks = new Map(snapshots.map((s) => [s.chainId, s.block.number]));
      const bounds = new Map(ids.map((id, c) => [id, lastOwn(c, blocks.get(id)!)]));
      const [activity, interactions] = await Promise.all([
        Promise.all(ids.map((id) => activityAt(`${id}:${bounds.get(id)}`, id, bounds.get(id)!))),
        interactionsAt([...bounds.values()].join(','), bounds),
      ]);
      const view = walletViewsOf({
        addresses: [address],
        activity: activity.flat(),
        lendingEvents: events.filter((e) => e.blockNumber <= blocks.get(e.chainId)!),
        balanceFlows: flows.filter((f) => f.blockNumber <= blocks.get(f.chainId)!),
        interactions,
        snapshots,
        attestations,
        names: new Map([[address, names]]),
        computedAt: this.deps.now().toISOString(),
      }).get(address)!;
      views.push({ date, view });
    }
    return views;
  }

  /**
   * Each day's snapshot of every chain as the chain would have answered after the day's last
   * indexed block, replayed from the index (`replayCalls`), with what it was replayed from.
   */
  async replayDays(
    address: Address,
    dates: readonly string[],
  ): Promise<{ days: { date: string; snapshots: WalletSnapshot[] }[]; upTo: Map<number, bigint>; flows: BalanceFlowRecord[] }> {
    const { chains, index, logger } = this.deps;
    const ids = chains.map((c) => c.config.id);
    const [checkpoints, incomplete] = await Promise.all([
      upstream('the activity index', logger, () => index.checkpoints(ids)),
      upstream('the activity index', logger, () => this.deps.market.incompleteChains(ids)),
    ]);
    if (incomplete.length > 0) {
      // positions are sums of every lending move since the pool began: part of them is no position
      throw new DomainError(
        'service_unavailable',
        `chain ${incomplete.join(', ')}: indexed before prices and positions were; the history needs it indexed again (index:reset, docs/OPERATIONS.md)`,
      );
    }
    const ends = dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000 + SECONDS_PER_DAY);
    const perChain = await Promise.all(chains.map((c) => this.chainHistory(c, checkpoints.get(c.config.id), address, ends)));
    const upTo = new Map(chains.map((c, i) => [c.config.id, perChain[i]!.checkpoint]));
    // the flows' window reaches back from each chain's last indexed block (not the wall clock: a
    // devnet's clock may run ahead of it): from there to the first day's window start, and a day more
    const indexedAt = Math.max(...[...checkpoints.values()].map((c) => (c.indexedToAt?.getTime() ?? 0) / 1000));
    const flowDays = Math.ceil((indexedAt - ends[0]!) / SECONDS_PER_DAY) + BALANCE_WINDOW_DAYS + 2;
    const flows = await upstream('the activity index', logger, () => index.balanceFlowsOf(ids, [address], upTo, flowDays));
    const days = dates.map((date, d) => ({
      date,
      snapshots: chains.map((c, i) => {
        const chain = perChain[i]!;
        const block = chain.blocks[d]!;
        const history: MarketHistory = {
          flows: flows.filter((f) => f.chainId === c.config.id),
          answers: chain.answers,
          moves: chain.moves,
          reserves: chain.reserves,
        };
        return chain.plan.decode(replayCalls(chain.plan.calls, chain.atCheckpoint, marketAt(history, block.number)), block);
      }),
    }));
    return { days, upTo, flows };
  }

  private async namesOf(address: Address): Promise<{ name: string; since: number }[]> {
    const ensChain = this.deps.chains.find((c) => c.config.ens?.registry !== undefined);
    if (ensChain === undefined) return [];
    const held = await upstream('the activity index', this.deps.logger, () => this.deps.names.heldNames(ensChain.config.id, [address]));
    return held.get(address.toLowerCase()) ?? [];
  }

  /** One chain: its state at the checkpoint (one multicall), its market history, and the block ending each day. */
  private async chainHistory(chain: ChainClient, checkpoint: CheckpointRecord | undefined, address: Address, ends: readonly number[]) {
    const { market, logger } = this.deps;
    const name = `chain ${chain.config.id} (${chain.config.name})`;
    if (checkpoint === undefined || checkpoint.indexedToAt === null) {
      throw new DomainError('service_unavailable', `${name}: the index has not started`);
    }
    const at = checkpoint.indexedTo;
    const plan = walletSnapshotPlan(chain.config, [address]);
    const feeds = priceFeedsOf(chain.config);
    const [read, next, blocks, answers, moves] = await Promise.all([
      upstream(name, logger, () =>
        executePlan(chain, combinePlans({ snapshot: rawPlan(plan.calls), reserves: reservesPlan(chain) }), { blockNumber: at }),
      ),
      upstream(name, logger, () =>
        chain.client.getBlock({ blockNumber: at + 1n }).then(
          (b) => Number(b.timestamp),
          (error: unknown) => ((error as Error).name === 'BlockNotFoundError' ? null : Promise.reject(error)),
        ),
      ),
      upstream('the activity index', logger, () => market.blocksBefore(chain.config.id, ends, at)),
      upstream('the activity index', logger, () => market.priceAnswers(chain.config.id, feeds, at)),
      upstream('the activity index', logger, () => market.lendingMoves(chain.config.id, [address], at)),
    ]);
    // a day is whole once the first block past the checkpoint is at or after its end (or none was mined yet)
    const last = ends[ends.length - 1]!;
    if (next !== null && next < last) {
      throw new DomainError('service_unavailable', `${name}: the index has not reached the end of ${dateOf(last - 1)} UTC yet`);
    }
    // a feed whose answers the index does not hold (a proxy that emits no AnswerUpdated, as
    // Chainlink's on mainnet) would leave every past day unpriced: refused, not scored from that
    const silent = feeds.filter((feed) => !answers.some((a) => a.feed === feed.toLowerCase()));
    if (silent.length > 0) {
      throw new DomainError(
        'service_unavailable',
        `${name}: the index holds no answer of the price feed ${silent.join(', ')}, so its past prices are unknown`,
      );
    }
    return {
      checkpoint: at,
      plan,
      atCheckpoint: read.snapshot,
      reserves: read.reserves,
      answers,
      moves,
      blocks: blocks.map((b) => ({ number: b.block ?? 0n, timestamp: BigInt(b.timestamp ?? b.before - 1) })),
    };
  }
}

/** `fn` called once per key: later calls with the key share the first call's promise. */
function memo<A extends unknown[], T>(fn: (...args: A) => Promise<T>): (key: string, ...args: A) => Promise<T> {
  const kept = new Map<string, Promise<T>>();
  return (key, ...args) => {
    const found = kept.get(key);
    if (found) return found;
    const made = fn(...args);
    kept.set(key, made);
    return made;
  };
}
