import type { Account } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { DEFAULT_MNEMONIC, startAnvil, type AnvilInstance } from '../src/anvil';
import { DEFAULT_CHAINS, devnetChain, type DevnetChainSpec } from '../src/chains';
import { deployChain, type ChainContracts } from '../src/deploy';
import { devnetClients, type DevnetClients } from '../src/deployer';

export function account(index: number): Account {
  return mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: index });
}

export interface TestChain {
  anvil: AnvilInstance;
  contracts: ChainContracts;
  /** Clients acting as the given account (0 = deployer and owner). */
  as(index: number): DevnetClients;
}

export async function startTestChain(chainId: number): Promise<TestChain> {
  const spec: DevnetChainSpec = DEFAULT_CHAINS.find((c) => c.id === chainId)!;
  const anvil = await startAnvil({ chainId });
  try {
    const contracts = await deployChain({ chain: spec, rpcUrl: anvil.rpcUrl });
    const chain = devnetChain(spec, anvil.rpcUrl);
    return { anvil, contracts, as: (index) => devnetClients(chain, account(index), anvil.rpcUrl) };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
