import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, portIsOpen } from './private-nats';

/**
 * A redis-server of a test's own on a free port, keeping nothing on disk: for a stack that must
 * run unprefixed (the shipped NATS permissions name unprefixed subjects, and the apps key Redis by
 * the subject prefix), so that its keys never meet the machine's Redis.
 */
export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp'];
  const child: ChildProcess = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', args, { stdio: 'ignore' });
  const killOnExit = () => child.kill('SIGKILL');
  child.unref();
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  };
  const deadline = Date.now() + 10_000;
  while (!(await portIsOpen(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`redis-server did not listen on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}
