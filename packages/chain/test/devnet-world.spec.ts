import { parseUnits, type Address, type Hash } from 'viem';
import { devnetAbi } from '@credit/devnet/abis';
import { deployerAccount } from '@credit/devnet/deploy';
import { devnetClients } from '@credit/devnet/deployer';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import type { DevnetState } from '@credit/devnet/state-file';
import type { ChainRegistry } from '../src/chain-config';
import { createChainClients } from '../src/clients';
import { registryFromDevnetState } from '../src/devnet-registry';
import { RoundTripCounter } from './round-trip-counter';
import { readWalletSnapshot } from '../src/wallet-snapshot-reader';
import { generatedAddresses } from './helpers';

jest.setTimeout(120_000);

/** The whole devnet (chains 1, 8453, 84532, as `startDevnet` brings them up) read through its state. */
describe('registry from a running devnet', () => {
  let devnet: Devnet;
  let registry: ChainRegistry;
  const [multichain, ...others] = generatedAddresses(20, 'devnet-world') as [Address, ...Address[]];

  beforeAll(async () => {
    devnet = await startDevnet();
    // the devnet's own state type is what registryFromDevnetState takes
    const state: DevnetState = devnet.state;
    registry = registryFromDevnetState(state);
    // 2 DAI on chain 1, 3 USDC on 8453, 4 USDC on the payment chain
    const seed: [number, string, bigint][] = [
      [1, 'DAI', parseUnits('2', 18)],
      [8453, 'USDC', 3_000_000n],
      [84532, 'USDC', 4_000_000n],
    ];
    for (const [chainId, symbol, amount] of seed) {
      const handle = devnet.chains.find((c) => c.spec.id === chainId)!;
      const owner = devnetClients(handle.chain, deployerAccount(), handle.rpcUrl);
      const hash: Hash = await owner.wallet.writeContract({
        address: devnet.contracts[chainId]!.tokens[symbol]!.address,
        abi: devnetAbi('DevToken'),
        functionName: 'mint',
        args: [multichain, amount],
      } as never);
      expect((await owner.public.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe('success');
    }
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  it('configures every devnet chain with its tokens, feeds, pool and ENS', () => {
    expect(registry.map((c) => [c.id, c.name, c.tokens.map((t) => t.symbol), c.lendingPools.length, Boolean(c.ens)])).toEqual([
      [1, 'Ethereum', ['WETH', 'DAI', 'USDC', 'VOLT'], 1, true],
      [8453, 'Base', ['WETH', 'DAI', 'USDC', 'VOLT'], 1, false],
      [84532, 'Base Sepolia', ['USDC'], 0, false],
    ]);
  });

  it('reads 20 addresses on all three chains in one eth_call per chain', async () => {
    const counter = new RoundTripCounter();
    const clients = createChainClients(registry, { onRequest: counter.onRequest });
    const addresses = [multichain, ...others];
    const snapshots = await Promise.all([...clients.values()].map((c) => readWalletSnapshot(c, addresses)));
    expect(counter.count()).toBe(3);
    expect([1, 8453, 84532].map((id) => counter.methods(id))).toEqual([['eth_call'], ['eth_call'], ['eth_call']]);
    const totals = snapshots.map((s) => [s.chainId, s.portfolio.addresses[0]!.total.usd, s.lending.addresses[0]!.positions.length]);
    expect(totals).toEqual([
      [1, '2.00', 1],
      [8453, '3.00', 1],
      [84532, '4.00', 0],
    ]);
  });
});
