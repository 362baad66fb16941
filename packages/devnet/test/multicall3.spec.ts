import { createPublicClient, custom, http, parseEther, type Address, type EIP1193RequestFn } from 'viem';
import { devnetAbi } from '../src/abis';
import { devnetChain, MULTICALL3_ADDRESS } from '../src/chains';
import { artifact } from '../src/compile';
import { account, startTestChain, type TestChain } from './helpers';

describe('Multicall3 at its canonical address', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await startTestChain(1);
  }, 30_000);
  afterAll(async () => {
    await chain?.anvil.stop();
  });

  it('is installed at 0xcA11bde05977b3631167028862bE2a173976CA11', async () => {
    const code = await chain.as(0).public.getCode({ address: MULTICALL3_ADDRESS });
    expect(code).toBe(artifact('Multicall3').deployedBytecode);
  });

  it("serves viem's multicall (aggregate3) in one eth_call, with per-call failures", async () => {
    const methods: string[] = [];
    const transport = http(chain.anvil.rpcUrl);
    const counting = custom({
      request: (async (args: { method: string; params?: unknown }) => {
        methods.push(args.method);
        return transport({ chain: undefined }).request(args as never);
      }) as EIP1193RequestFn,
    });
    const client = createPublicClient({ chain: devnetChain({ id: 1, name: 'Ethereum' }, chain.anvil.rpcUrl), transport: counting });
    const tokenAbi = devnetAbi('DevToken');
    const multicallAbi = devnetAbi('Multicall3');
    const holders: Address[] = [0, 1, 2, 3].map((i) => account(i).address);
    const tokens = Object.values(chain.contracts.tokens);

    const results = (await client.multicall({
      contracts: [
        ...holders.flatMap((h) => tokens.map((t) => ({ address: t.address, abi: tokenAbi, functionName: 'balanceOf', args: [h] }))),
        ...holders.map((h) => ({ address: MULTICALL3_ADDRESS, abi: multicallAbi, functionName: 'getEthBalance', args: [h] })),
        { address: MULTICALL3_ADDRESS, abi: multicallAbi, functionName: 'getCurrentBlockTimestamp' },
        { address: MULTICALL3_ADDRESS, abi: multicallAbi, functionName: 'getChainId' },
        // a call that reverts (not the owner) must not sink the batch
        { address: tokens[0]!.address, abi: tokenAbi, functionName: 'mint', args: [holders[0], 1n] },
      ] as never,
    })) as { status: 'success' | 'failure'; result?: unknown; error?: Error }[];
    expect(methods).toEqual(['eth_call']);
    const n = holders.length * tokens.length;
    expect(results.slice(0, n).every((r) => r.status === 'success' && r.result === 0n)).toBe(true);
    // account 0 deployed the world and paid gas; the others hold anvil's 10,000 ETH
    const balances = await Promise.all(holders.map((h) => chain.as(0).public.getBalance({ address: h })));
    expect(results.slice(n, n + 4).map((r) => r.result)).toEqual(balances);
    expect(balances[1]).toBe(parseEther('10000'));
    const block = await chain.as(0).public.getBlock();
    expect(results[n + 4]).toEqual({ status: 'success', result: block.timestamp });
    expect(results[n + 5]).toEqual({ status: 'success', result: 1n });
    expect(results[n + 6]!.status).toBe('failure');
  });

  it('answers aggregate3 called directly, and reverts when a call that may not fail fails', async () => {
    const client = chain.as(0).public;
    const multicallAbi = devnetAbi('Multicall3');
    const result = (await client.readContract({
      address: MULTICALL3_ADDRESS,
      abi: multicallAbi,
      functionName: 'aggregate3',
      args: [[{ target: MULTICALL3_ADDRESS, allowFailure: false, callData: '0x42cbb15c' /* getBlockNumber() */ }]],
    })) as readonly { success: boolean; returnData: string }[];
    expect(result[0]!.success).toBe(true);
    expect(BigInt(result[0]!.returnData)).toBe(await client.getBlockNumber());
    await expect(
      client.readContract({
        address: MULTICALL3_ADDRESS,
        abi: multicallAbi,
        functionName: 'aggregate3',
        args: [[{ target: chain.contracts.tokens.DAI!.address, allowFailure: false, callData: '0xdeadbeef' }]],
      }),
    ).rejects.toThrow(/Multicall3: call failed/);
  });
});
