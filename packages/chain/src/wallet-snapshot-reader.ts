import type { BalanceOptions } from './balance-reader';
import type { ChainConfig } from './chain-config';
import type { ChainClient } from './clients';
import { lendingPlan, type LendingReading } from './lending-reader';
import { combinePlans, executePlan, mapPlan, type BlockRef, type ExecuteOptions, type ReadPlan } from './multicall';
import { portfolioPlan, type PortfolioReading } from './portfolio-reader';

/** Everything current about a set of addresses on one chain, read at one block. */
export interface WalletSnapshot {
  chainId: number;
  block: BlockRef;
  portfolio: PortfolioReading;
  lending: LendingReading;
}

/**
 * Balances, prices, USD values and lending positions of many addresses in ONE multicall per
 * chain: addresses × (assets + pools) + 2 × feeds + 2 calls, split only past the chain's
 * `maxCallsPerMulticall`.
 */
export function walletSnapshotPlan(
  config: ChainConfig,
  addresses: Iterable<string>,
  options: BalanceOptions = {},
): ReadPlan<WalletSnapshot> {
  const list = [...addresses];
  const plan = combinePlans({ portfolio: portfolioPlan(config, list, options), lending: lendingPlan(config, list) });
  return mapPlan(plan, (value, block) => ({ chainId: config.id, block, ...value }));
}

export function readWalletSnapshot(
  chainClient: ChainClient,
  addresses: Iterable<string>,
  options: BalanceOptions & ExecuteOptions = {},
): Promise<WalletSnapshot> {
  return executePlan(chainClient, walletSnapshotPlan(chainClient.config, addresses, options), options);
}
