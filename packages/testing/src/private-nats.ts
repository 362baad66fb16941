import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A NATS server of a test's own on a free port, to stop and start again (outage tests never touch
 * the machine's NATS). `stop()` then `start()` brings it back on the same port, so connected
 * clients reconnect by themselves.
 */
export interface PrivateNats {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface PrivateNatsOptions {
  /** Server configuration (nats-server.conf syntax) added after `listen`, e.g. an `include`. */
  config?: string;
  /** Environment of the server: the `$VARIABLES` its configuration reads. */
  env?: Record<string, string>;
}

export async function startPrivateNats(options: PrivateNatsOptions = {}): Promise<PrivateNats> {
  const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'private-nats-'));
  const configFile = join(dir, 'nats.conf');
  writeFileSync(configFile, `listen: 127.0.0.1:${port}\n${options.config ?? ''}\n`);
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGKILL');
  const server: PrivateNats = {
    url: `nats://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      child = spawn(binary, ['-c', configFile], { stdio: 'ignore', env: { ...process.env, ...options.env } });
      // A server someone forgot to stop never keeps the test process alive (it is killed on exit).
      child.unref();
      process.once('exit', killOnExit);
      await waitForPort(port, 10_000);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      process.off('exit', killOnExit);
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
  };
  await server.start();
  return server;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether something accepts TCP connections on the port right now. */
export function portIsOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await portIsOpen(port))) {
    if (Date.now() > deadline) throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
