/**
 * The x402 payment networks (docs/API.md §5 "Paying per request"): the four networks the API
 * accepts USDC on, each with its token and the token's EIP-712 domain (name, version), which a
 * `transferWithAuthorization` signature is made against. These are the real chains' facts; a
 * deployment may point a network at another token (the devnet's payment chain) by configuration.
 */
export interface PaymentNetwork {
  /** CAIP-2 identifier, as x402 v2 names networks. */
  readonly network: `eip155:${number}`;
  readonly chainId: number;
  /** The name docs/API.md §2.11 and the x402 v1 clients use (`base`, `base-sepolia`). */
  readonly name: string;
  /** Only these are in x402 v1's closed network list; the others are offered to v2 clients only. */
  readonly v1: boolean;
  readonly testnet: boolean;
  readonly asset: `0x${string}`;
  readonly tokenName: string;
  readonly tokenVersion: string;
  readonly decimals: number;
  /** The chain takes type-0 (legacy) transactions only (SKALE). */
  readonly legacyTransactions: boolean;
}

export const PAYMENT_NETWORKS = [
  {
    network: 'eip155:8453',
    chainId: 8453,
    name: 'base',
    v1: true,
    testnet: false,
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    tokenName: 'USD Coin',
    tokenVersion: '2',
    decimals: 6,
    legacyTransactions: false,
  },
  {
    network: 'eip155:84532',
    chainId: 84532,
    name: 'base-sepolia',
    v1: true,
    testnet: true,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    tokenName: 'USDC',
    tokenVersion: '2',
    decimals: 6,
    legacyTransactions: false,
  },
  {
    network: 'eip155:1187947933',
    chainId: 1187947933,
    name: 'skale-base',
    v1: false,
    testnet: false,
    asset: '0x85889c8c714505E0c94b30fcfcF64fE3Ac8FCb20',
    tokenName: 'Bridged USDC (SKALE Bridge)',
    tokenVersion: '2',
    decimals: 6,
    legacyTransactions: true,
  },
  {
    network: 'eip155:324705682',
    chainId: 324705682,
    name: 'skale-base-sepolia',
    v1: false,
    testnet: true,
    asset: '0x2e08028E3C4c2356572E096d8EF835cD5C6030bD',
    tokenName: 'Bridged USDC (SKALE Bridge)',
    tokenVersion: '2',
    decimals: 6,
    legacyTransactions: true,
  },
] as const satisfies readonly PaymentNetwork[];

/** How long a signed authorization may be in flight (x402's `maxTimeoutSeconds`). */
export const PAYMENT_TIMEOUT_SECONDS = 120;
