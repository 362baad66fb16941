import { maxUint256, type Address, type Hash } from 'viem';
import { mnemonicToAccount, privateKeyToAddress } from 'viem/accounts';
import { keccak256, toHex } from 'viem';
import { devnetAbi } from '@credit/devnet/abis';
import { DEFAULT_MNEMONIC, startAnvil, type AnvilInstance } from '@credit/devnet/anvil';
import { DEFAULT_CHAINS, devnetChain } from '@credit/devnet/chains';
import { deployChain, type ChainContracts } from '@credit/devnet/deploy';
import { devnetClients, type DevnetClients } from '@credit/devnet/deployer';
import type { ChainConfig } from '../src/chain-config';
import { registryFromDevnetState, type DevnetRegistryOptions } from '../src/devnet-registry';

/** Account `index` of the devnet mnemonic (0 deploys and owns every contract). */
export const accountAddress = (index: number): Address => mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: index }).address;

/** `count` fresh, deterministic addresses nobody funded (derived from `seed`). */
export function generatedAddresses(count: number, seed: string): Address[] {
  return Array.from({ length: count }, (_, i) => privateKeyToAddress(keccak256(toHex(`${seed}:${i}`))));
}

export interface ChainFixture {
  anvil: AnvilInstance;
  contracts: ChainContracts;
  /** The chain as the registry sees it (built from a devnet-state-shaped object). */
  config: ChainConfig;
  /** Clients acting as a mnemonic account. */
  as(index: number): DevnetClients;
  token(symbol: string): Address;
  feed(description: string): Address;
  /** Sets an address's native balance (anvil_setBalance). */
  setNative(address: Address, wei: bigint): Promise<void>;
  /** Owner mints; all transactions sent at once with consecutive nonces, then every receipt checked. */
  mint(mints: readonly { symbol: string; to: Address; amount: bigint }[]): Promise<void>;
  /** Sends one transaction as `index` and checks its receipt. */
  send(
    index: number,
    address: Address,
    functionName: string,
    args: readonly unknown[],
    abiName?: Parameters<typeof devnetAbi>[0],
  ): Promise<void>;
  stop(): Promise<void>;
}

/**
 * An anvil with one devnet chain's contracts (the devnet's own `startAnvil` + `deployChain`),
 * read through a registry made by `registryFromDevnetState`. The devnet's state file is not
 * written by `deployChain`; the helper assembles the same `{chains, contracts}` shape itself.
 */
export async function startChainFixture(chainId: number, registryOptions: DevnetRegistryOptions = {}): Promise<ChainFixture> {
  const spec = DEFAULT_CHAINS.find((c) => c.id === chainId)!;
  const anvil = await startAnvil({ chainId });
  try {
    const contracts = await deployChain({ chain: spec, rpcUrl: anvil.rpcUrl });
    const state = { chains: [{ id: spec.id, name: spec.name, rpcUrl: anvil.rpcUrl }], contracts: { [String(spec.id)]: contracts } };
    const config = registryFromDevnetState(state, registryOptions)[0]!;
    const chain = devnetChain(spec, anvil.rpcUrl);
    const as = (index: number) => devnetClients(chain, mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: index }), anvil.rpcUrl);
    const owner = as(0);
    const tokenAbi = devnetAbi('DevToken');
    const token = (symbol: string) => {
      const found = contracts.tokens[symbol];
      if (!found) throw new Error(`no token ${symbol}`);
      return found.address;
    };
    const confirm = async (clients: DevnetClients, hash: Hash) => {
      const receipt = await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    };
    return {
      anvil,
      contracts,
      config,
      as,
      token,
      feed(description) {
        const found = contracts.priceFeeds[description];
        if (!found) throw new Error(`no feed ${description}`);
        return found;
      },
      async setNative(address, wei) {
        await owner.test.setBalance({ address, value: wei });
      },
      async mint(mints) {
        let nonce = await owner.public.getTransactionCount({ address: owner.wallet.account.address, blockTag: 'pending' });
        const hashes = await Promise.all(
          mints.map((m) =>
            owner.wallet.writeContract({
              address: token(m.symbol),
              abi: tokenAbi,
              functionName: 'mint',
              args: [m.to, m.amount],
              nonce: nonce++,
              gas: 200_000n,
            } as never),
          ),
        );
        await Promise.all(hashes.map((hash) => confirm(owner, hash)));
      },
      async send(index, address, functionName, args, abiName = 'LendingPool') {
        const clients = as(index);
        const hash = await clients.wallet.writeContract({ address, abi: devnetAbi(abiName), functionName, args } as never);
        await confirm(clients, hash);
      },
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/** Mints `amount` of a token to account `index` and lets the pool pull it (approve max). */
export async function fundForPool(fixture: ChainFixture, index: number, symbol: string, amount: bigint): Promise<void> {
  await fixture.mint([{ symbol, to: accountAddress(index), amount }]);
  await fixture.send(index, fixture.token(symbol), 'approve', [fixture.contracts.lendingPool!.address, maxUint256], 'DevToken');
}
