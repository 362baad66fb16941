import type { Address } from 'viem';
import type { Asset } from './assets';
import { balancePlan, type BalanceOptions } from './balance-reader';
import type { ChainConfig } from './chain-config';
import { addDecimals, decimal, mulDecimals, usdAmount, type Decimal, type UsdAmount } from './decimal';
import { combinePlans, mapPlan, type BlockRef, type ReadPlan } from './multicall';
import { pricePlan, type AssetPrice } from './price-reader';

export interface AssetValue {
  asset: Asset;
  /** Base units; null when the balance could not be read. */
  amount: bigint | null;
  units: Decimal | null;
  price: AssetPrice;
  /**
   * balance × price, exact, and rounded to cents. A zero balance is worth 0 whatever the price;
   * otherwise null unless the balance was read and the price is `ok` (see `reason`).
   */
  value: UsdAmount | null;
  reason?: string;
}

export interface AddressPortfolio {
  address: Address;
  assets: AssetValue[];
  /** Sum of the exact values of the valued assets, rounded to cents once. */
  total: UsdAmount;
  /** True when every asset has a value (nothing left out of `total`). */
  complete: boolean;
}

export interface PortfolioReading {
  chainId: number;
  chainName: string;
  block: BlockRef;
  /** The prices used (every asset's, with its status). */
  prices: AssetPrice[];
  addresses: AddressPortfolio[];
}

function valueOf(asset: Asset, amount: bigint | null, units: Decimal | null, price: AssetPrice, balanceError?: string): AssetValue {
  const base = { asset, amount, units, price };
  if (amount === null || units === null) return { ...base, value: null, reason: `balance unavailable: ${balanceError ?? 'unknown'}` };
  if (amount === 0n) return { ...base, value: usdAmount(decimal(0n, 0)) };
  if (price.status !== 'ok' || price.usdPerUnit === null) {
    return { ...base, value: null, reason: `price ${price.status}${price.round.error ? `: ${price.round.error}` : ''}` };
  }
  return { ...base, value: usdAmount(mulDecimals(units, price.usdPerUnit)) };
}

/**
 * USD value per address per asset on one chain: the balance calls and the price-feed calls of
 * the same assets in ONE multicall (addresses × assets + 2 × feeds calls, one round trip).
 */
export function portfolioPlan(config: ChainConfig, addresses: Iterable<string>, options: BalanceOptions = {}): ReadPlan<PortfolioReading> {
  const plan = combinePlans({ balances: balancePlan(config, addresses, options), prices: pricePlan(config, options) });
  return mapPlan(plan, ({ balances, prices }, block) => ({
    chainId: config.id,
    chainName: config.name,
    block,
    prices: prices.prices,
    addresses: balances.addresses.map(({ address, balances: held }) => {
      const assets = held.map((b, i) => valueOf(b.asset, b.amount, b.units, prices.prices[i]!, b.error));
      const valued = assets.flatMap((a) => (a.value ? [a.value.exact] : []));
      return { address, assets, total: usdAmount(addDecimals(...valued)), complete: valued.length === assets.length };
    }),
  }));
}
