/**
 * sandboxProfile(PINNED_KEY), written out once. Any change of the generator, or different
 * arithmetic on another machine or Node version, fails test/sandbox-profile.spec.ts. Regenerate
 * only for a deliberate generator change (and say so in the commit).
 */
export const PINNED_KEY = '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B';

export const PINNED_PROFILE = {
  key: '0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B',
  kind: 'address',
  score: 669,
  chains: [
    {
      chainId: 1,
      chainName: 'Ethereum',
      active: true,
      firstTransaction: {
        timestamp: 1616626590,
        blockNumber: 12318937,
        chainId: 1,
      },
      lastTransaction: {
        timestamp: 1696782298,
        blockNumber: 18314009,
        chainId: 1,
      },
      assetUsd: 7452.49,
      suppliedUsd: 2389.46,
      borrowedUsd: 257.31,
      counts: {
        transactions: 17,
        transfers: 33,
        balances: 4,
        collateralDeposits: 6,
        activeLoans: 1,
        liquidations: 0,
        repayments: 0,
      },
    },
    {
      chainId: 8453,
      chainName: 'Base',
      active: false,
      assetUsd: 0,
      suppliedUsd: 0,
      borrowedUsd: 0,
      counts: {
        transactions: 0,
        transfers: 0,
        balances: 0,
        collateralDeposits: 0,
        activeLoans: 0,
        liquidations: 0,
        repayments: 0,
      },
    },
    {
      chainId: 10,
      chainName: 'OP Mainnet',
      active: false,
      assetUsd: 0,
      suppliedUsd: 0,
      borrowedUsd: 0,
      counts: {
        transactions: 0,
        transfers: 0,
        balances: 0,
        collateralDeposits: 0,
        activeLoans: 0,
        liquidations: 0,
        repayments: 0,
      },
    },
    {
      chainId: 42161,
      chainName: 'Arbitrum One',
      active: false,
      assetUsd: 0,
      suppliedUsd: 0,
      borrowedUsd: 0,
      counts: {
        transactions: 0,
        transfers: 0,
        balances: 0,
        collateralDeposits: 0,
        activeLoans: 0,
        liquidations: 0,
        repayments: 0,
      },
    },
    {
      chainId: 137,
      chainName: 'Polygon',
      active: true,
      firstTransaction: {
        timestamp: 1642167823,
        blockNumber: 23460396,
        chainId: 137,
      },
      lastTransaction: {
        timestamp: 1713195907,
        blockNumber: 55915599,
        chainId: 137,
      },
      assetUsd: 2934.97,
      suppliedUsd: 0,
      borrowedUsd: 0,
      counts: {
        transactions: 116,
        transfers: 109,
        balances: 2,
        collateralDeposits: 0,
        activeLoans: 0,
        liquidations: 0,
        repayments: 0,
      },
    },
  ],
  activeChains: [1, 137],
  firstTransaction: {
    timestamp: 1616626590,
    blockNumber: 12318937,
    chainId: 1,
  },
  lastTransaction: {
    timestamp: 1713195907,
    blockNumber: 55915599,
    chainId: 137,
  },
  counts: {
    transactions: 133,
    transfers: 142,
    balances: 6,
    collateralDeposits: 6,
    activeLoans: 1,
    liquidations: 0,
    repayments: 0,
  },
  tokens: [
    {
      symbol: 'ETH',
      name: 'Ether',
      balance: '0.554352',
      valueUsd: 1385.88,
      chainId: 1,
    },
    {
      symbol: 'WBTC',
      name: 'Wrapped BTC',
      balance: '0.045651',
      valueUsd: 2739.06,
      chainId: 1,
    },
    {
      symbol: 'UNI',
      name: 'Uniswap',
      balance: '141.163750',
      valueUsd: 1129.31,
      chainId: 1,
    },
    {
      symbol: 'AAVE',
      name: 'Aave Token',
      balance: '8.792960',
      valueUsd: 2198.24,
      chainId: 1,
    },
    {
      symbol: 'POL',
      name: 'Polygon Ecosystem Token',
      balance: '2943.900000',
      valueUsd: 1177.56,
      chainId: 137,
    },
    {
      symbol: 'WETH',
      name: 'Wrapped Ether',
      balance: '0.702964',
      valueUsd: 1757.41,
      chainId: 137,
    },
  ],
  nfts: [
    {
      name: 'rapidfjord.eth',
      collection: 'ENS: Ethereum Name Service',
      chainId: 1,
    },
  ],
  defi: [
    {
      protocol: 'Spark',
      chainId: 1,
      suppliedUsd: 2389.46,
      borrowedUsd: 257.31,
      collateralDeposits: 6,
      repayments: 0,
      liquidations: 0,
    },
  ],
  totalAssetUsd: 10387.46,
  totalSuppliedUsd: 2389.46,
  totalBorrowedUsd: 257.31,
  identity: {
    ens: {
      primaryName: 'rapidfjord.eth',
      ownedNames: ['rapidfjord.eth'],
      avatar: null,
    },
    passport: {
      score: 47.39,
      stamps: [
        {
          provider: 'Google',
          verified: true,
        },
        {
          provider: 'Discord',
          verified: true,
        },
        {
          provider: 'ENS',
          verified: true,
        },
        {
          provider: 'Ethereum',
          verified: false,
        },
        {
          provider: 'Binance',
          verified: true,
        },
      ],
    },
    poaps: {
      count: 2,
      events: [
        {
          name: 'EthCC 2021',
          date: '2021-11-04',
        },
        {
          name: 'ETHDenver 2022',
          date: '2022-12-05',
        },
      ],
    },
    social: {
      lens: 'rapidfjord.lens',
      farcaster: 'rapidfjord',
    },
  },
  attestations: [
    'ens:rapidfjord.eth',
    'passport:Google',
    'passport:Discord',
    'passport:ENS',
    'passport:Binance',
    'poap:EthCC 2021',
    'poap:ETHDenver 2022',
    'lens:rapidfjord.lens',
    'farcaster:rapidfjord',
  ],
  factors: [
    {
      label: 'Borrowing History',
      score: 569,
      rating: 'low',
      description: '1 lending position, 1 active loan, no liquidations',
    },
    {
      label: 'Wallet Composition',
      score: 589,
      rating: 'low',
      description: '6 tokens across 2 chains, 0% in stablecoins',
    },
    {
      label: 'Wallet Health',
      score: 709,
      rating: 'fair',
      description: 'Debt is 11% of collateral',
    },
    {
      label: 'Interactions',
      score: 719,
      rating: 'fair',
      description: '133 transactions and 142 transfers on 2 chains',
    },
    {
      label: 'Trust',
      score: 865,
      rating: 'very_good',
      description: 'Passport score 47.39 with 4 verified stamps, 9 identity attestations',
    },
    {
      label: 'New Credit',
      score: 765,
      rating: 'good',
      description: 'First transaction on 2021-03-24, most recent on 2024-04-15',
    },
  ],
};
