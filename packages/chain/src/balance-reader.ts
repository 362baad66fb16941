import type { Address } from 'viem';
import { erc20BalanceAbi, multicall3Abi } from './abis';
import { chainAssets, type Asset } from './assets';
import type { ChainConfig } from './chain-config';
import { decimal, type Decimal } from './decimal';
import { uniqueAddresses, type BlockRef, type PlannedCall, type ReadPlan } from './multicall';

export interface AssetBalance {
  asset: Asset;
  /** Base units; null when the read failed (`error` says why). Never a guess. */
  amount: bigint | null;
  /** `amount` in whole units, exact. */
  units: Decimal | null;
  error?: string;
}

export interface AddressBalances {
  address: Address;
  /** The chain's assets in `chainAssets` order. */
  balances: AssetBalance[];
}

export interface BalancesReading {
  chainId: number;
  block: BlockRef;
  addresses: AddressBalances[];
}

export interface BalanceOptions {
  /** Only these symbols (native and tokens); default all configured. */
  symbols?: readonly string[];
}

/**
 * Native (Multicall3 `getEthBalance`) and ERC-20 `balanceOf` for every (address, asset) pair,
 * as calls of one multicall: addresses × (1 + tokens) calls, one round trip.
 */
export function balancePlan(config: ChainConfig, addresses: Iterable<string>, options: BalanceOptions = {}): ReadPlan<BalancesReading> {
  const owners = uniqueAddresses(addresses);
  const assets = chainAssets(config, options.symbols);
  const calls: PlannedCall[] = owners.flatMap((owner) =>
    assets.map((asset): PlannedCall =>
      asset.token === null
        ? { address: config.multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [owner] }
        : { address: asset.token, abi: erc20BalanceAbi, functionName: 'balanceOf', args: [owner] },
    ),
  );
  return {
    calls,
    decode(results, block) {
      return {
        chainId: config.id,
        block,
        addresses: owners.map((address, o) => ({
          address,
          balances: assets.map((asset, a): AssetBalance => {
            const result = results[o * assets.length + a]!;
            if (!result.ok) return { asset, amount: null, units: null, error: result.error };
            const amount = result.value as bigint;
            return { asset, amount, units: decimal(amount, asset.decimals) };
          }),
        })),
      };
    },
  };
}
