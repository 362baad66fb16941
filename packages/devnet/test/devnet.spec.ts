import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { devnetAbi } from '../src/abis';
import { startDevnet, type Devnet } from '../src/devnet';
import type { DevnetState } from '../src/state-file';

describe('startDevnet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'devnet-world-'));
  const running: Devnet[] = [];
  afterAll(async () => {
    await Promise.all(running.map((d) => d.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('cold start: deploys on chains 1, 8453 and 84532 and writes state.json', async () => {
    const devnet = await startDevnet({ stateDir: dir });
    running.push(devnet);
    expect(devnet.reused).toBe(false);
    const state = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as DevnetState;
    expect(state.chains.map(({ id, name, role }) => ({ id, name, role }))).toEqual([
      { id: 1, name: 'Ethereum', role: 'scoring' },
      { id: 8453, name: 'Base', role: 'scoring' },
      { id: 84532, name: 'Base Sepolia', role: 'payment' },
    ]);
    expect(state.chains.map((c) => c.rpcUrl)).toEqual(devnet.chains.map((c) => c.anvil.rpcUrl));
    expect(Object.keys(state.contracts)).toEqual(['1', '8453', '84532']);
    expect(Object.keys(state.contracts['1']!.tokens)).toEqual(['WETH', 'DAI', 'USDC', 'VOLT']);
    expect(state.contracts['8453']!.lendingPool).toBeDefined();
    expect(state.contracts['84532']!.lendingPool).toBeUndefined();
    expect(state.contracts['84532']!.tokens.USDC).toMatchObject({ name: 'USDC', eip712Version: '2' });
    // unseeded: no scoring cast, only the payment chain's devnet-only payer (payments.spec.ts)
    expect(Object.keys(state.cast)).toEqual(['payer']);
    expect(state.population).toEqual([]);
    // the same deployment order gives the same addresses on both scoring chains
    expect(state.contracts['1']!.tokens.WETH!.address).toBe(state.contracts['8453']!.tokens.WETH!.address);
    await devnet.stop();
  }, 30_000);

  it('warm start: loads the saved chains instead of deploying', async () => {
    const before = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as DevnetState;
    const devnet = await startDevnet({ stateDir: dir });
    running.push(devnet);
    expect(devnet.reused).toBe(true);
    expect(devnet.state.contracts).toEqual(before.contracts);
    const base = devnet.chains.find((c) => c.spec.id === 8453)!;
    const client = createPublicClient({ chain: base.chain, transport: http(base.rpcUrl) });
    const usdc = devnet.contracts[8453]!.tokens.USDC!.address;
    expect(await client.readContract({ address: usdc, abi: devnetAbi('Usdc3009'), functionName: 'name' })).toBe('USD Coin');
    await devnet.stop();
  }, 30_000);
});
