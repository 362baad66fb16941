import type { Address } from 'viem';
import type { ChainConfig } from './chain-config';

/** A balance-bearing asset of a chain: its native coin or a configured ERC-20. */
export interface Asset {
  kind: 'native' | 'token';
  symbol: string;
  name: string;
  decimals: number;
  /** The ERC-20 contract; null for the native coin. */
  token: Address | null;
  priceFeed: Address;
  /** Staleness bound of the feed, seconds. */
  priceMaxAgeSeconds: number;
}

/** The native coin first, then the configured tokens in their order; `symbols` narrows the list. */
export function chainAssets(config: ChainConfig, symbols?: readonly string[]): Asset[] {
  const wanted = symbols ? new Set(symbols.map((s) => s.toUpperCase())) : undefined;
  const assets: Asset[] = [
    {
      kind: 'native',
      symbol: config.nativeSymbol,
      name: config.nativeName ?? config.nativeSymbol,
      decimals: 18,
      token: null,
      priceFeed: config.nativePriceFeed,
      priceMaxAgeSeconds: config.priceMaxAgeSeconds,
    },
    ...config.tokens.map((t): Asset => ({
      kind: 'token',
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      token: t.address,
      priceFeed: t.priceFeed,
      priceMaxAgeSeconds: t.priceMaxAgeSeconds ?? config.priceMaxAgeSeconds,
    })),
  ];
  return wanted ? assets.filter((a) => wanted.has(a.symbol.toUpperCase())) : assets;
}

/** The chain's configured USD price feeds, each once: the native coin's and each token's. */
export function priceFeedsOf(config: ChainConfig): Address[] {
  return [...new Set(chainAssets(config).map((a) => a.priceFeed))];
}
