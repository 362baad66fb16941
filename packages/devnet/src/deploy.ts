import type { Abi, Account, Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { DEFAULT_MNEMONIC } from './anvil';
import { devnetChain, MULTICALL3_ADDRESS, type DevnetChainSpec } from './chains';
import { artifact, loadArtifacts, type ArtifactFile } from './compile';
import { Deployer, devnetClients } from './deployer';
import { deployEns, type EnsContracts } from './ens';
import { defaultWorldSpec, type ChainWorldSpec } from './world-spec';

export interface DeployedToken {
  address: Address;
  symbol: string;
  name: string;
  decimals: number;
  /** EIP-712 domain version, for EIP-3009 tokens. */
  eip712Version?: string;
  priceFeed: Address;
}

export interface DeployedReserve {
  asset: Address;
  symbol: string;
  ltvBps: number;
  liquidationThresholdBps: number;
  liquidationBonusBps: number;
}

export interface ChainContracts {
  multicall3: Address;
  /** The native coin's USD feed. */
  nativePriceFeed: Address;
  /** By symbol. */
  tokens: Record<string, DeployedToken>;
  /** By feed description ("ETH / USD"). */
  priceFeeds: Record<string, Address>;
  lendingPool?: { address: Address; reserves: DeployedReserve[] };
  ens?: EnsContracts;
}

export interface DeployTarget {
  chain: DevnetChainSpec;
  rpcUrl: string;
  spec?: ChainWorldSpec;
}

/** The deployer and owner of every devnet contract: account 0 of the mnemonic. */
export function deployerAccount(mnemonic = DEFAULT_MNEMONIC): Account {
  return mnemonicToAccount(mnemonic, { addressIndex: 0 });
}

export const FEED_DECIMALS = 8;

/** Deploys one chain's contracts in a fixed order (so addresses are the same on every run). */
export interface DeployOptions {
  account?: Account;
  artifacts?: ArtifactFile;
  /** anvil only: mine the deployment's blocks at consecutive seconds from here (a reproducible chain). */
  firstTimestamp?: number;
}

export async function deployChain(target: DeployTarget, options: DeployOptions = {}): Promise<ChainContracts> {
  const artifacts = options.artifacts ?? loadArtifacts();
  const spec = target.spec ?? defaultWorldSpec(target.chain.id, target.chain.role);
  const clients = devnetClients(devnetChain(target.chain, target.rpcUrl), options.account ?? deployerAccount());
  const d = new Deployer(clients, artifacts, options.firstTimestamp);
  const owner = d.address;

  await d.setCode(MULTICALL3_ADDRESS, 'Multicall3');

  const priceFeeds: Record<string, Address> = {};
  const feedFor = async (description: string, priceUsd8: bigint) => {
    priceFeeds[description] ??= await d.deploy('MockAggregatorV3', [FEED_DECIMALS, description, priceUsd8, owner]);
    return priceFeeds[description]!;
  };
  const nativePriceFeed = await feedFor(spec.nativeFeed.description, spec.nativeFeed.priceUsd8);

  const tokens: Record<string, DeployedToken> = {};
  for (const token of spec.tokens) {
    const address =
      token.kind === 'usdc3009'
        ? await d.deploy('Usdc3009', [token.name, token.symbol, token.decimals, token.eip712Version ?? '2', owner])
        : await d.deploy('DevToken', [token.name, token.symbol, token.decimals, owner]);
    const priceFeed = await feedFor(token.feed, token.priceUsd8);
    tokens[token.symbol] = {
      address,
      symbol: token.symbol,
      name: token.name,
      decimals: token.decimals,
      ...(token.kind === 'usdc3009' ? { eip712Version: token.eip712Version ?? '2' } : {}),
      priceFeed,
    };
  }

  const contracts: ChainContracts = { multicall3: MULTICALL3_ADDRESS, nativePriceFeed, tokens, priceFeeds };
  if (spec.lendingPool) {
    const pool = await d.deploy('LendingPool', [owner]);
    const poolAbi = artifact('LendingPool', artifacts).abi as Abi;
    const reserves: DeployedReserve[] = [];
    for (const token of spec.tokens) {
      if (!token.reserve) continue;
      const deployed = tokens[token.symbol]!;
      const r = token.reserve;
      await d.write(pool, poolAbi, 'initReserve', [
        deployed.address,
        deployed.priceFeed,
        r.ltvBps,
        r.liquidationThresholdBps,
        r.liquidationBonusBps,
        r.variableBorrowRateRay,
      ]);
      reserves.push({
        asset: deployed.address,
        symbol: token.symbol,
        ltvBps: r.ltvBps,
        liquidationThresholdBps: r.liquidationThresholdBps,
        liquidationBonusBps: r.liquidationBonusBps,
      });
    }
    contracts.lendingPool = { address: pool, reserves };
  }
  if (spec.ens) contracts.ens = await deployEns(d);
  return contracts;
}

/** Deploys every chain (in parallel: each has its own anvil and nonce). Keyed by chain id. */
export async function deployWorld(targets: readonly DeployTarget[], options: DeployOptions = {}): Promise<Record<number, ChainContracts>> {
  const artifacts = options.artifacts ?? loadArtifacts();
  const deployed = await Promise.all(targets.map((t) => deployChain(t, { ...options, artifacts })));
  return Object.fromEntries(targets.map((t, i) => [t.chain.id, deployed[i]!]));
}
