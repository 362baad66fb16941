import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anvilBinaryPath, startAnvil, type AnvilInstance } from '../src/anvil';
import { rpc as jsonRpc } from '../src/json-rpc';

const rpc = (url: string, method: string, params: unknown[] = []) => jsonRpc<unknown>(url, method, params);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('anvil', () => {
  const dir = mkdtempSync(join(tmpdir(), 'devnet-anvil-'));
  const started: AnvilInstance[] = [];
  afterAll(async () => {
    await Promise.all(started.map((a) => a.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('resolves the platform binary from @foundry-rs/anvil', () => {
    expect(existsSync(anvilBinaryPath())).toBe(true);
  });

  it('starts two chains on free ports with their chain ids, and stops them', async () => {
    const [a, b] = await Promise.all([startAnvil({ chainId: 1 }), startAnvil({ chainId: 8453 })]);
    started.push(a!, b!);
    expect(a!.port).not.toBe(b!.port);
    expect(await rpc(a!.rpcUrl, 'eth_chainId')).toBe('0x1');
    expect(await rpc(b!.rpcUrl, 'eth_chainId')).toBe('0x2105');
    // the default mnemonic's first account
    const accounts = (await rpc(a!.rpcUrl, 'eth_accounts')) as string[];
    expect(accounts[0]!.toLowerCase()).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
    // automine: no interval mining
    const before = await rpc(a!.rpcUrl, 'eth_blockNumber');
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await rpc(a!.rpcUrl, 'eth_blockNumber')).toBe(before);

    // each keeps past states in a directory of its own, gone once it exits
    expect(a!.cachePath).not.toBe(b!.cachePath);
    expect(existsSync(a!.cachePath)).toBe(true);
    await a!.stop();
    await b!.stop();
    expect(existsSync(a!.cachePath)).toBe(false);
    expect(existsSync(b!.cachePath)).toBe(false);
    expect(alive(a!.pid)).toBe(false);
    expect(alive(b!.pid)).toBe(false);
    await expect(rpc(a!.rpcUrl, 'eth_chainId')).rejects.toThrow();
  });

  it('dumps state on stop and loads it on the next start', async () => {
    const file = join(dir, 'state.json');
    const first = await startAnvil({ chainId: 84532, dumpStatePath: file });
    started.push(first);
    await rpc(first.rpcUrl, 'anvil_setBalance', ['0x000000000000000000000000000000000000bEEF', '0x1234']);
    await rpc(first.rpcUrl, 'evm_mine', []);
    await first.stop();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('accounts');

    const second = await startAnvil({ chainId: 84532, loadStatePath: file });
    started.push(second);
    expect(await rpc(second.rpcUrl, 'eth_getBalance', ['0x000000000000000000000000000000000000bEEF', 'latest'])).toBe('0x1234');
    await second.stop();
  });

  it('reports a failed start with anvil output', async () => {
    await expect(startAnvil({ chainId: 1, loadStatePath: join(dir, 'missing.json'), startTimeoutMs: 5_000 })).rejects.toThrow(/anvil/);
  });
});
