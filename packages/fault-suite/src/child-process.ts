import { spawn, type ChildProcess } from 'node:child_process';

/**
 * A process the suite started: its own process group (so that signals reach whatever it spawned,
 * as Ctrl-C in a terminal does), the tail of its output for failure messages, and its exit.
 * Every child is remembered until it exits; `killAllChildren()` (afterAll) ends the rest.
 */
export interface Child {
  readonly name: string;
  readonly pid: number;
  /** Set once the process has exited. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  readonly exited: Promise<void>;
  /** The last 64 KiB of stdout and stderr together. */
  output(): string;
  /** Resolves when a line of output matches. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** Sends `signal` to the whole group and waits for the exit (SIGKILL after `graceMs`). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const OUTPUT_LIMIT = 64 * 1024;
const children = new Set<Child>();
/** Every group ever started: a leader's exit can leave members behind (anvil under the devnet). */
const groups = new Set<number>();

export function spawnChild(
  name: string,
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Child {
  const proc: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const listeners = new Set<(text: string) => void>();
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
    for (const listener of listeners) listener(output);
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  let markExited!: () => void;
  const child: Child = {
    name,
    pid: proc.pid!,
    exited: new Promise<void>((resolve) => (markExited = resolve)),
    output: () => output,
    waitForLine(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (text: string) => {
          const line = text.split('\n').find((l) => pattern.test(l));
          if (line === undefined) return;
          done();
          resolve(line);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name}: no line matching ${pattern} within ${timeoutMs} ms\n${output.slice(-4000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check(output);
      });
    },
    async stop(signal = 'SIGTERM', graceMs = 10_000) {
      if (child.exit) return;
      signalGroup(child.pid, signal);
      const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
      await child.exited;
      clearTimeout(timer);
      signalGroup(child.pid, 'SIGKILL');
    },
  };
  proc.once('exit', (code, signal) => {
    child.exit = { code, signal };
    children.delete(child);
    markExited();
  });
  proc.once('error', (error) => {
    output += `\n[spawn error] ${error.message}`;
  });
  children.add(child);
  groups.add(child.pid);
  return child;
}

/** A signal to a child's whole process group (its own children too); gone already is fine. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group has exited
  }
}

/** SIGKILL to every child still running (afterAll, whatever happened). */
export async function killAllChildren(): Promise<void> {
  const left = [...children];
  for (const pid of groups) signalGroup(pid, 'SIGKILL');
  groups.clear();
  await Promise.all(left.map((child) => child.exited));
}
