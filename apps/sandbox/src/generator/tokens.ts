/**
 * Tokens the sandbox hands out, per chain, with fixed mock prices in integer cents per whole token.
 * The first token of each chain is its gas token: every active chain holds some.
 */
export interface SandboxTokenDef {
  readonly symbol: string;
  readonly name: string;
  readonly priceCents: number;
  readonly stable: boolean;
}

const ETH: SandboxTokenDef = { symbol: 'ETH', name: 'Ether', priceCents: 250_000, stable: false };
const USDC: SandboxTokenDef = { symbol: 'USDC', name: 'USD Coin', priceCents: 100, stable: true };
const USDT: SandboxTokenDef = { symbol: 'USDT', name: 'Tether USD', priceCents: 100, stable: true };
const DAI: SandboxTokenDef = { symbol: 'DAI', name: 'Dai Stablecoin', priceCents: 100, stable: true };
const WBTC: SandboxTokenDef = { symbol: 'WBTC', name: 'Wrapped BTC', priceCents: 6_000_000, stable: false };

export const SANDBOX_TOKENS: Readonly<Record<number, readonly SandboxTokenDef[]>> = {
  1: [
    ETH,
    USDC,
    USDT,
    DAI,
    WBTC,
    { symbol: 'LINK', name: 'ChainLink Token', priceCents: 1_500, stable: false },
    { symbol: 'UNI', name: 'Uniswap', priceCents: 800, stable: false },
    { symbol: 'AAVE', name: 'Aave Token', priceCents: 25_000, stable: false },
  ],
  8453: [
    ETH,
    USDC,
    DAI,
    { symbol: 'cbBTC', name: 'Coinbase Wrapped BTC', priceCents: 6_000_000, stable: false },
    { symbol: 'AERO', name: 'Aerodrome', priceCents: 90, stable: false },
  ],
  10: [ETH, USDC, USDT, DAI, { symbol: 'OP', name: 'Optimism', priceCents: 180, stable: false }],
  42161: [
    ETH,
    USDC,
    USDT,
    WBTC,
    { symbol: 'ARB', name: 'Arbitrum', priceCents: 75, stable: false },
    { symbol: 'GMX', name: 'GMX', priceCents: 2_000, stable: false },
  ],
  137: [
    { symbol: 'POL', name: 'Polygon Ecosystem Token', priceCents: 40, stable: false },
    USDC,
    USDT,
    { symbol: 'WETH', name: 'Wrapped Ether', priceCents: 250_000, stable: false },
    WBTC,
  ],
};

/** Balances are shown with this many decimals (mock precision, whatever the token's own). */
export const BALANCE_DECIMALS = 6;
