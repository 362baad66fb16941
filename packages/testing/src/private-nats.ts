import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';

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

export async function startPrivateNats(binary = process.env.NATS_SERVER_BIN ?? 'nats-server'): Promise<PrivateNats> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: PrivateNats = {
    url: `nats://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
      await waitForPort(port, 10_000);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
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

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
