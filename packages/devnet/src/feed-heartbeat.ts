import type { Account, Address } from 'viem';
import { devnetAbi } from './abis';
import type { ChainContracts } from './deploy';
import { devnetClients } from './deployer';
import type { DevnetChainHandle } from './devnet';

/**
 * A price feed's heartbeat, as a real oracle network keeps one: every feed answers its current
 * price again with a round stamped now. Without it the seeded feeds' last rounds lie days or
 * years behind the wall clock, and readers rightly call them stale. The price itself never
 * changes here.
 */
export async function refreshFeeds(
  chains: readonly DevnetChainHandle[],
  contracts: Record<number, ChainContracts>,
  owner: Account,
): Promise<void> {
  const abi = devnetAbi('MockAggregatorV3');
  await Promise.all(
    chains.map(async (c) => {
      const clients = devnetClients(c.chain, owner, c.rpcUrl);
      const feeds = new Set<Address>(Object.values(contracts[c.spec.id]!.priceFeeds));
      for (const feed of feeds) {
        const answer = (await clients.public.readContract({ address: feed, abi, functionName: 'latestAnswer' })) as bigint;
        const hash = await clients.wallet.writeContract({
          address: feed,
          abi,
          functionName: 'setAnswer',
          args: [answer],
          account: owner,
          chain: c.chain,
        });
        const receipt = await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        if (receipt.status !== 'success') throw new Error(`feed ${feed} on chain ${c.spec.id}: heartbeat reverted`);
      }
    }),
  );
}
