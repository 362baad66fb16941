import type { DevnetChainRole } from './chains';

/** Aave-style risk parameters of a reserve, in basis points; the rate is a ray (1e27 = 100%). */
export interface ReserveSpec {
  ltvBps: number;
  liquidationThresholdBps: number;
  liquidationBonusBps: number;
  variableBorrowRateRay: bigint;
}

export interface TokenSpec {
  symbol: string;
  name: string;
  decimals: number;
  /** `usdc3009`: EIP-3009 token whose EIP-712 domain is {name, eip712Version}. */
  kind: 'erc20' | 'usdc3009';
  eip712Version?: string;
  /** Initial USD price with 8 decimals (Chainlink's USD feeds). */
  priceUsd8: bigint;
  /** The feed's description; tokens naming the same feed share it (WETH uses ETH / USD). */
  feed: string;
  /** Listed in the lending pool with these parameters. */
  reserve?: ReserveSpec;
}

export interface ChainWorldSpec {
  nativeFeed: { description: string; priceUsd8: bigint };
  tokens: TokenSpec[];
  lendingPool: boolean;
  ens: boolean;
}

const ray = (percent: number) => BigInt(Math.round(percent * 100)) * 10n ** 23n;

export const ETH_USD_8 = 3_000n * 10n ** 8n;

function scoringTokens(usdcName: string): TokenSpec[] {
  return [
    {
      symbol: 'WETH',
      name: 'Wrapped Ether',
      decimals: 18,
      kind: 'erc20',
      priceUsd8: ETH_USD_8,
      feed: 'ETH / USD',
      reserve: { ltvBps: 8000, liquidationThresholdBps: 8250, liquidationBonusBps: 500, variableBorrowRateRay: ray(2.5) },
    },
    {
      symbol: 'DAI',
      name: 'Dai Stablecoin',
      decimals: 18,
      kind: 'erc20',
      priceUsd8: 10n ** 8n,
      feed: 'DAI / USD',
      reserve: { ltvBps: 7500, liquidationThresholdBps: 8000, liquidationBonusBps: 500, variableBorrowRateRay: ray(5) },
    },
    {
      symbol: 'USDC',
      name: usdcName,
      decimals: 6,
      kind: 'usdc3009',
      eip712Version: '2',
      priceUsd8: 10n ** 8n,
      feed: 'USDC / USD',
      reserve: { ltvBps: 7700, liquidationThresholdBps: 8000, liquidationBonusBps: 450, variableBorrowRateRay: ray(5.5) },
    },
    {
      symbol: 'VOLT',
      name: 'Volt Token',
      decimals: 18,
      kind: 'erc20',
      priceUsd8: 250_000_000n,
      feed: 'VOLT / USD',
      reserve: { ltvBps: 5000, liquidationThresholdBps: 6500, liquidationBonusBps: 1000, variableBorrowRateRay: ray(9) },
    },
  ];
}

/**
 * What each chain gets, by role; USDC's EIP-712 domain names follow the real chains
 * (docs/ARCHITECTURE.md, "Design outline").
 */
export function defaultWorldSpec(chainId: number, role: DevnetChainRole): ChainWorldSpec {
  const nativeFeed = { description: 'ETH / USD', priceUsd8: ETH_USD_8 };
  if (role === 'payment') {
    return {
      nativeFeed,
      tokens: [
        { symbol: 'USDC', name: 'USDC', decimals: 6, kind: 'usdc3009', eip712Version: '2', priceUsd8: 10n ** 8n, feed: 'USDC / USD' },
      ],
      lendingPool: false,
      ens: false,
    };
  }
  return { nativeFeed, tokens: scoringTokens('USD Coin'), lendingPool: true, ens: chainId === 1 };
}
