import type { Address } from 'viem';
import { aggregatorV3Abi } from './abis';
import { chainAssets, type Asset } from './assets';
import type { ChainConfig } from './chain-config';
import { decimal, type Decimal } from './decimal';
import { type BlockRef, type CallResult, type PlannedCall, type ReadPlan } from './multicall';

/**
 * - `ok`: a positive answer no older than the asset's `priceMaxAgeSeconds` (against the block time);
 * - `stale`: positive, but older than that, or from an earlier round than the latest (`answeredInRound < roundId`);
 * - `non_positive`: the feed answers 0 or less;
 * - `unavailable`: the feed could not be read (revert, no contract, no round yet).
 * Only `ok` prices are used for USD values; the others are reported as they are, never replaced.
 */
export type PriceStatus = 'ok' | 'stale' | 'non_positive' | 'unavailable';

/** What a feed said, undecorated. */
export interface FeedRound {
  feed: Address;
  decimals: number | null;
  roundId: bigint | null;
  answer: bigint | null;
  answeredInRound: bigint | null;
  /** Seconds; null when unread. */
  updatedAt: bigint | null;
  error?: string;
}

export interface AssetPrice {
  asset: Asset;
  round: FeedRound;
  status: PriceStatus;
  /** Block time minus `updatedAt`, seconds. */
  ageSeconds: bigint | null;
  /** USD per whole unit of the asset, exact (`answer / 10^decimals`); set for `ok` and `stale`. */
  usdPerUnit: Decimal | null;
}

export interface PricesReading {
  chainId: number;
  block: BlockRef;
  /** The chain's assets in `chainAssets` order. */
  prices: AssetPrice[];
}

export interface PriceOptions {
  /** Only these symbols; default the native coin and every configured token. */
  symbols?: readonly string[];
}

function feedRound(feed: Address, roundData: CallResult, decimalsResult: CallResult): FeedRound {
  const errors = [roundData, decimalsResult].filter((r): r is { ok: false; error: string } => !r.ok).map((r) => r.error);
  const decimals = decimalsResult.ok ? Number(decimalsResult.value) : null;
  if (!roundData.ok) {
    return { feed, decimals, roundId: null, answer: null, answeredInRound: null, updatedAt: null, error: errors.join('; ') };
  }
  const [roundId, answer, , updatedAt, answeredInRound] = roundData.value as readonly [bigint, bigint, bigint, bigint, bigint];
  return { feed, decimals, roundId, answer, answeredInRound, updatedAt, ...(errors.length ? { error: errors.join('; ') } : {}) };
}

function assessPrice(asset: Asset, round: FeedRound, block: BlockRef): AssetPrice {
  const { answer, decimals, updatedAt, roundId, answeredInRound } = round;
  if (answer === null || decimals === null || updatedAt === null || updatedAt === 0n) {
    return { asset, round, status: 'unavailable', ageSeconds: null, usdPerUnit: null };
  }
  const ageSeconds = block.timestamp > updatedAt ? block.timestamp - updatedAt : 0n;
  if (answer <= 0n) return { asset, round, status: 'non_positive', ageSeconds, usdPerUnit: null };
  const stale =
    ageSeconds > BigInt(asset.priceMaxAgeSeconds) || (answeredInRound !== null && roundId !== null && answeredInRound < roundId);
  return { asset, round, status: stale ? 'stale' : 'ok', ageSeconds, usdPerUnit: decimal(answer, decimals) };
}

/**
 * `latestRoundData` and `decimals` of every distinct feed of the chain's assets (native and
 * tokens; a feed shared by two assets is read once): 2 calls per feed, one multicall.
 */
export function pricePlan(config: ChainConfig, options: PriceOptions = {}): ReadPlan<PricesReading> {
  const assets = chainAssets(config, options.symbols);
  const feeds = [...new Set(assets.map((a) => a.priceFeed))];
  const calls: PlannedCall[] = feeds.flatMap((feed): PlannedCall[] => [
    { address: feed, abi: aggregatorV3Abi, functionName: 'latestRoundData' },
    { address: feed, abi: aggregatorV3Abi, functionName: 'decimals' },
  ]);
  return {
    calls,
    decode(results, block) {
      const rounds = new Map(feeds.map((feed, i) => [feed, feedRound(feed, results[2 * i]!, results[2 * i + 1]!)]));
      return { chainId: config.id, block, prices: assets.map((asset) => assessPrice(asset, rounds.get(asset.priceFeed)!, block)) };
    },
  };
}
