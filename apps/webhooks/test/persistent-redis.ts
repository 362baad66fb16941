import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portIsOpen } from '@credit/testing/private-nats';

/**
 * A redis-server of the test's own on a free port that keeps every write on disk before it answers
 * (`appendonly yes`, `appendfsync always`), so it can be killed and started again on the same port
 * and directory with nothing lost. Never the machine's Redis.
 */
export interface PersistentRedis {
  url: string;
  /** SIGKILL: no shutdown save, only what the append-only file already holds survives. */
  kill(): Promise<void>;
  /** SIGTERM: a clean shutdown (the append-only file flushed), as an orchestrator stops it. */
  stop(): Promise<void>;
  /** SIGSTOP, at once: it holds every connection and answers nothing until killed (or `SIGCONT`). */
  freeze(): void;
  start(): Promise<void>;
  /** Kills it and removes its directory. */
  remove(): Promise<void>;
}

export async function startPersistentRedis(): Promise<PersistentRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'credit-webhooks-redis-'));
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);
  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill(signal);
    });
  };
  const kill = () => end('SIGKILL');
  const start = async () => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
    ];
    const started = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', args, { stdio: 'ignore' });
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await portIsOpen(port))) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not listen on port ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    stop: () => end('SIGTERM'),
    freeze: () => void child?.kill('SIGSTOP'),
    start,
    async remove() {
      await kill();
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
