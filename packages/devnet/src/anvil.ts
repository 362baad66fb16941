import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Foundry's default test mnemonic: the same ten funded accounts on every chain, every run. */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';

export interface AnvilOptions {
  chainId: number;
  /** 0 (the default) lets the OS pick a free port; the chosen one is read from anvil's output. */
  port?: number;
  host?: string;
  mnemonic?: string;
  /** Funded accounts derived from the mnemonic (anvil's default: 10). */
  accounts?: number;
  /** Balance of each funded account, in ether (anvil's default: 10000). */
  balanceEther?: number;
  /** Seconds between blocks; omitted = automine (a block per transaction, no interval mining). */
  blockTime?: number;
  /** Genesis block timestamp (seconds); omitted = anvil's default. */
  genesisTimestamp?: number;
  /** Written by anvil when it stops (on `stop()`). */
  dumpStatePath?: string;
  /** Read by anvil at start. The file must exist. */
  loadStatePath?: string;
  /** How long to wait for the RPC to answer. */
  startTimeoutMs?: number;
  /** Extra command-line arguments, passed through. */
  extraArgs?: readonly string[];
}

export interface AnvilInstance {
  readonly chainId: number;
  readonly host: string;
  readonly port: number;
  readonly rpcUrl: string;
  readonly pid: number;
  /** Where it offloads past blocks' states (`--cache-path`): its own directory, removed when it exits. */
  readonly cachePath: string;
  /** The last lines anvil printed (for diagnostics). */
  output(): string;
  /** SIGTERM (anvil writes `--dump-state` then), SIGKILL after a timeout; resolves once it exited. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Path of the anvil binary. `@foundry-rs/anvil` ships it in a platform package
 * (`@foundry-rs/anvil-linux-amd64` here, `bin/anvil`); under pnpm that package is only visible
 * from `@foundry-rs/anvil`'s own directory, so it is resolved from there.
 */
export function anvilBinaryPath(): string {
  if (process.env.ANVIL_BINARY) return process.env.ANVIL_BINARY;
  const platform = process.platform === 'win32' ? 'win32' : process.platform;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const anvilPackage = require.resolve('@foundry-rs/anvil/package.json');
  const platformPackage = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`, {
    paths: [dirname(anvilPackage)],
  });
  return join(dirname(platformPackage), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export function anvilArgs(options: AnvilOptions): string[] {
  const args = [
    '--chain-id',
    String(options.chainId),
    '--port',
    String(options.port ?? 0),
    '--host',
    options.host ?? '127.0.0.1',
    '--mnemonic',
    options.mnemonic ?? DEFAULT_MNEMONIC,
  ];
  if (options.accounts !== undefined) args.push('--accounts', String(options.accounts));
  if (options.balanceEther !== undefined) args.push('--balance', String(options.balanceEther));
  if (options.blockTime !== undefined) args.push('--block-time', String(options.blockTime));
  if (options.genesisTimestamp !== undefined) args.push('--timestamp', String(options.genesisTimestamp));
  if (options.dumpStatePath !== undefined) args.push('--dump-state', options.dumpStatePath);
  if (options.loadStatePath !== undefined) args.push('--load-state', options.loadStatePath);
  args.push(...(options.extraArgs ?? []));
  return args;
}

// Every anvil this process started: killed when the process exits, so a crashed test run or a
// forgotten `stop()` leaves no orphan chain behind. Each keeps the states of past blocks it
// offloads to disk in a directory of its own (`--cache-path`), removed when it exits: anvil's
// default, ~/.foundry/anvil/tmp, is never cleaned after a killed anvil and grew past 70 GB over a
// day of seeded worlds.
const running = new Map<ChildProcess, string>();
let exitHookInstalled = false;
const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });
function track(child: ChildProcess, cacheDir: string): void {
  running.set(child, cacheDir);
  child.once('exit', () => {
    running.delete(child);
    removeDir(cacheDir);
  });
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [c, dir] of running) {
      c.kill('SIGKILL');
      removeDir(dir);
    }
  });
}

const LISTENING = /Listening on ([^\s:]+|\[[^\]]+\]):(\d+)/;

export async function startAnvil(options: AnvilOptions): Promise<AnvilInstance> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'anvil-states-'));
  const child = spawn(anvilBinaryPath(), [...anvilArgs(options), '--cache-path', cacheDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  track(child, cacheDir);
  const lines: string[] = [];
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  const output = () => lines.join('\n');

  const listening = new Promise<{ host: string; port: number }>((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (lines.length > 200) lines.shift();
        const match = LISTENING.exec(line);
        if (match) resolve({ host: match[1]!, port: Number(match[2]) });
      }
    };
    // Keep draining both streams for anvil's whole life: a full pipe would block it.
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    void exitPromise.then(() =>
      reject(new Error(`anvil exited before listening (code ${exited?.code}, signal ${exited?.signal}):\n${output()}`)),
    );
  });

  const stop = async (timeoutMs = 5_000): Promise<void> => {
    if (exited || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exitPromise;
    clearTimeout(timer);
  };

  const timeoutMs = options.startTimeoutMs ?? 20_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`anvil did not start within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    });
    const { host, port } = await Promise.race([listening, timeout]);
    const rpcHost = host === '0.0.0.0' ? '127.0.0.1' : host;
    const rpcUrl = `http://${rpcHost}:${port}`;
    await Promise.race([waitForRpc(rpcUrl, options.chainId, Date.now() + timeoutMs), timeout]);
    return {
      chainId: options.chainId,
      host: rpcHost,
      port,
      rpcUrl,
      pid: child.pid!,
      cachePath: cacheDir,
      output,
      stop,
    };
  } catch (error) {
    await stop(1_000);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `eth_chainId` until the node answers with the expected id (or the deadline passes). */
export async function waitForRpc(rpcUrl: string, chainId: number, deadline = Date.now() + 20_000): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result !== undefined) {
        if (Number(body.result) !== chainId) throw new Error(`RPC ${rpcUrl} answers chain ${Number(body.result)}, expected ${chainId}`);
        return;
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('RPC ')) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`RPC ${rpcUrl} did not answer in time`);
}
