import type { RangeLabel } from '@credit/contracts/schemas/common';

/**
 * One generated address: everything every sandbox answer needs, internally consistent. Money is
 * USD with at most two decimals; every total is the sum of its parts in integer cents; per-chain
 * figures add up to the profile's totals; timestamps are Unix seconds (UTC).
 */
export interface SandboxProfile {
  /** The normalised input it was generated from: a checksummed hex address or a normalised name. */
  key: string;
  kind: 'address' | 'name';
  /** 300..1000. */
  score: number;
  factors: SandboxFactor[];
  /** Every chain of SANDBOX_CHAINS, in table order, active or not. */
  chains: SandboxChainProfile[];
  /** Ids of the chains with activity, in table order; never empty. */
  activeChains: number[];
  firstTransaction: SandboxTransaction;
  lastTransaction: SandboxTransaction;
  counts: SandboxCounts;
  tokens: SandboxToken[];
  nfts: SandboxNft[];
  defi: SandboxLendingPosition[];
  /** Σ tokens' valueUsd: wallet holdings. */
  totalAssetUsd: number;
  /** Σ positions' suppliedUsd: the collateral in lending protocols. */
  totalSuppliedUsd: number;
  /** Σ positions' borrowedUsd: the debt. */
  totalBorrowedUsd: number;
  identity: SandboxIdentity;
  /** Identity attestations (`ens:<name>`, `passport:<provider>`, `poap:<event>`, `lens:…`, `farcaster:…`), deduplicated. */
  attestations: string[];
}

import type { FactorLabel } from '@credit/contracts/schemas/score';

export interface SandboxFactor {
  label: FactorLabel;
  /** The factor's own sub-score, 300..1000; `rating` is its range. */
  score: number;
  rating: RangeLabel;
  description: string;
}

export interface SandboxTransaction {
  /** Unix seconds. */
  timestamp: number;
  blockNumber: number;
  chainId: number;
}

export interface SandboxCounts {
  transactions: number;
  /** Always at least half the transactions. */
  transfers: number;
  /** Number of token balances held. */
  balances: number;
  collateralDeposits: number;
  activeLoans: number;
  liquidations: number;
  repayments: number;
}

export interface SandboxChainProfile {
  chainId: number;
  chainName: string;
  active: boolean;
  /** Present exactly when the chain is active. */
  firstTransaction?: SandboxTransaction;
  lastTransaction?: SandboxTransaction;
  assetUsd: number;
  suppliedUsd: number;
  borrowedUsd: number;
  counts: SandboxCounts;
}

export interface SandboxToken {
  symbol: string;
  name: string;
  /** Decimal string, six decimals. */
  balance: string;
  valueUsd: number;
  chainId: number;
}

export interface SandboxNft {
  name: string;
  collection: string;
  chainId: number;
}

export interface SandboxLendingPosition {
  protocol: string;
  chainId: number;
  suppliedUsd: number;
  /** ≤ suppliedUsd × the protocol's LTV. */
  borrowedUsd: number;
  collateralDeposits: number;
  repayments: number;
  liquidations: number;
}

export interface SandboxIdentity {
  /** About half of the addresses; always for a name input, whose primary name is the name itself. */
  ens?: { primaryName: string; ownedNames: string[]; avatar: string | null };
  passport: { score: number; stamps: { provider: string; verified: boolean }[] };
  /** count === events.length; dates (YYYY-MM-DD) lie between the first and the last transaction. */
  poaps: { count: number; events: { name: string; date: string }[] };
  /** Network → handle, e.g. { lens: 'handle.lens', farcaster: 'handle' }. */
  social?: Record<string, string>;
}
