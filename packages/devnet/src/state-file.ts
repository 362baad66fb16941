import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Address, Hex } from 'viem';
import type { ChainContracts } from './deploy';
import { PACKAGE_ROOT } from './compile';

export interface StateChain {
  id: number;
  name: string;
  rpcUrl: string;
  role: 'scoring' | 'payment';
}

export interface CastMember {
  address: Address;
  /** Its primary ENS name (the ENS holder's; the other names it owns: `ENS_HOLDER_NAMES` in seed/cast). */
  ens?: string;
}

/** The cast's roles (issue 3); filled by the seeding step. */
export type CastRole = 'healthy_borrower' | 'liquidated' | 'new_wallet' | 'multichain' | 'ens_holder' | 'empty';

/** The seeded cast: wallets with a history on the scoring chains (absent for an unseeded world). */
export type ScoringCast = Partial<Record<CastRole, CastMember>>;

/**
 * A DEVNET-ONLY account with its private key. The key is derived from the devnet's public test
 * mnemonic (`test test … junk`, see payments.ts) and is written to `state.json` on purpose, so
 * tests and local clients can sign with it. Never fund or use such a key on a real network.
 */
export interface DevnetKeyAccount {
  address: Address;
  privateKey: Hex;
}

/**
 * The cast: the seeded wallets on the scoring chains (`ScoringCast`), and `payer`, a DEVNET-ONLY
 * account on the payment chain (every world, seeded or not), funded with the chain's USDC
 * (1,000,000 USDC) and 10 ETH, no history on the scoring chains. Its private key is in the file
 * because it is a devnet-only key (`DevnetKeyAccount`): it signs x402 payments in tests and from
 * local clients.
 */
export type DevnetCast = ScoringCast & { payer: DevnetKeyAccount };

/**
 * The payment chain as an x402 configuration (packages/devnet/src/payments.ts): where payments are
 * made, in which token, to whom, and the account that settles them.
 */
export interface DevnetPayments {
  /** The payment chain's id (84532). */
  chainId: number;
  /** x402 v2 (CAIP-2) network: `eip155:84532`. */
  network: `eip155:${number}`;
  /** x402 v1 network name (a closed enum there): `base-sepolia`. */
  v1Network: string;
  /** The payment chain's RPC URL (of this start: ports may change between starts). */
  rpcUrl: string;
  /** The EIP-3009 USDC (`Usdc3009`) on the payment chain. */
  token: Address;
  /** Its EIP-712 domain name and version: "USDC", "2". */
  tokenName: string;
  tokenVersion: string;
  /** 6. */
  decimals: number;
  /** The receiver of payments: a devnet address holding no USDC when the world is built. */
  payTo: Address;
  /**
   * The DEVNET-ONLY account that sends the settlement transactions (`transferWithAuthorization`),
   * funded with 1,000 ETH for gas and nothing else; its key is here for the self-hosted facilitator.
   */
  facilitator: DevnetKeyAccount;
  /**
   * Every DEVNET-ONLY signer of the self-hosted facilitator (four, `facilitator` first), each funded
   * with 1,000 ETH for gas on every start: each has its own settlement queue and nonce sequence.
   */
  facilitators: DevnetKeyAccount[];
}

export interface PopulationMember {
  address: Address;
  /** The `.eth` names it owns on the ENS chain (a few members; `POPULATION_ENS_NAMES` in seed/population). */
  ens?: string[];
  [key: string]: unknown;
}

/** The seeded population's world: its parameters and the outcome window's realised prices (seed/population). */
export interface PopulationWorld {
  /** The world parameters (`WorldParams` of seed/world-params). */
  params: Record<string, unknown>;
  /** The features moment T and the end of the outcome window (seconds). */
  featuresAt: number;
  windowEnd: number;
  /** The window's daily prices as set on every scoring chain's feeds (USD, 8 decimals, as strings). */
  prices: { at: number; ethUsd8: string; voltUsd8: string }[];
}

export interface DevnetState {
  version: 1;
  /** Hash of the compiled contracts and the world's deploy recipe; a saved chain is reused only when it matches. */
  worldHash: string;
  /** What the seeding was given (seed, anchor, population size), as JSON; absent for an unseeded world. */
  worldKey?: string;
  chains: StateChain[];
  /** Keyed by chain id (as a string: JSON); `ens` (chain 1) includes the `registrarController`. */
  contracts: Record<string, ChainContracts>;
  cast: DevnetCast;
  population: PopulationMember[];
  /** The population's world (absent for an unseeded world or one seeded before it was recorded). */
  populationWorld?: PopulationWorld;
  /** The payment chain's x402 configuration (its token, receiver and facilitator). */
  payments: DevnetPayments;
}

/** The repository root: the nearest directory above this package holding pnpm-workspace.yaml. */
export function repositoryRoot(from = PACKAGE_ROOT): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
}

/** `.devnet/` at the repository root (ignored by git). */
export function defaultStateDir(): string {
  return join(repositoryRoot(), '.devnet');
}

export function stateFilePath(stateDir = defaultStateDir()): string {
  return join(stateDir, 'state.json');
}

export function writeStateFile(state: DevnetState, path = stateFilePath()): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, path);
}

export function readStateFile(path = stateFilePath()): DevnetState | undefined {
  if (!existsSync(path)) return undefined;
  const state = JSON.parse(readFileSync(path, 'utf8')) as DevnetState;
  if (state.version !== 1) return undefined;
  return state;
}
