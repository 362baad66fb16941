import { maxUint256, type Address } from 'viem';
import { aaveV3PoolAbi } from './abis';
import type { ChainConfig, LendingPoolConfig } from './chain-config';
import { decimal, usdAmount, type Decimal, type UsdAmount } from './decimal';
import { uniqueAddresses, type BlockRef, type PlannedCall, type ReadPlan } from './multicall';

/** Aave V3's base currency on its USD markets: USD with 8 decimals. */
const BASE_CURRENCY_DECIMALS = 8;
const HEALTH_FACTOR_DECIMALS = 18;

/** Raw `getUserAccountData` fields. */
export interface AccountData {
  totalCollateralBase: bigint;
  totalDebtBase: bigint;
  availableBorrowsBase: bigint;
  /** Basis points. */
  currentLiquidationThreshold: bigint;
  /** Basis points. */
  ltv: bigint;
  /** 18 decimals; `type(uint256).max` without debt. */
  healthFactor: bigint;
}

export interface LendingPosition {
  pool: LendingPoolConfig;
  /** Null when the pool could not be read (`error` says why). */
  data: AccountData | null;
  collateral: UsdAmount | null;
  debt: UsdAmount | null;
  availableBorrows: UsdAmount | null;
  /** Exact health factor; null without debt (the pool answers max uint256) or when unread. */
  healthFactor: Decimal | null;
  hasDebt: boolean;
  /** Supplied or borrowed anything. */
  active: boolean;
  error?: string;
}

export interface AddressPositions {
  address: Address;
  /** One per configured pool, in config order. */
  positions: LendingPosition[];
}

export interface LendingReading {
  chainId: number;
  block: BlockRef;
  addresses: AddressPositions[];
}

function position(pool: LendingPoolConfig, result: { ok: true; value: unknown } | { ok: false; error: string }): LendingPosition {
  if (!result.ok) {
    return {
      pool,
      data: null,
      collateral: null,
      debt: null,
      availableBorrows: null,
      healthFactor: null,
      hasDebt: false,
      active: false,
      error: result.error,
    };
  }
  const [totalCollateralBase, totalDebtBase, availableBorrowsBase, currentLiquidationThreshold, ltv, healthFactor] =
    result.value as readonly bigint[] as [bigint, bigint, bigint, bigint, bigint, bigint];
  const data: AccountData = { totalCollateralBase, totalDebtBase, availableBorrowsBase, currentLiquidationThreshold, ltv, healthFactor };
  const hasDebt = totalDebtBase > 0n;
  return {
    pool,
    data,
    collateral: usdAmount(decimal(totalCollateralBase, BASE_CURRENCY_DECIMALS)),
    debt: usdAmount(decimal(totalDebtBase, BASE_CURRENCY_DECIMALS)),
    availableBorrows: usdAmount(decimal(availableBorrowsBase, BASE_CURRENCY_DECIMALS)),
    healthFactor: healthFactor === maxUint256 ? null : decimal(healthFactor, HEALTH_FACTOR_DECIMALS),
    hasDebt,
    active: hasDebt || totalCollateralBase > 0n,
  };
}

/** `getUserAccountData(user)` for every (address, pool): addresses × pools calls, one multicall. */
export function lendingPlan(config: ChainConfig, addresses: Iterable<string>): ReadPlan<LendingReading> {
  const owners = uniqueAddresses(addresses);
  const pools = config.lendingPools;
  const calls: PlannedCall[] = owners.flatMap((owner) =>
    pools.map((pool): PlannedCall => ({ address: pool.address, abi: aaveV3PoolAbi, functionName: 'getUserAccountData', args: [owner] })),
  );
  return {
    calls,
    decode(results, block) {
      return {
        chainId: config.id,
        block,
        addresses: owners.map((address, o) => ({
          address,
          positions: pools.map((pool, p) => position(pool, results[o * pools.length + p]!)),
        })),
      };
    },
  };
}
