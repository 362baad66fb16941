import { spawnChild, type Child } from './child-process';
import { freePort, portIsOpen, waitUntil } from './ports';

/**
 * A redis-server of the suite's own on a free port (NATS: @credit/testing/private-nats): outages are made by stopping
 * it and starting it again on the same port, never by touching the machine's services.
 */
export interface PrivateDaemon {
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  /** SIGKILL, as a crash or a pulled cable looks to the clients. */
  stop(): Promise<void>;
}

async function privateDaemon(
  name: string,
  url: (port: number) => string,
  command: string,
  args: (port: number) => string[],
): Promise<PrivateDaemon> {
  const port = await freePort();
  let child: Child | undefined;
  const daemon: PrivateDaemon = {
    url: url(port),
    port,
    async start() {
      if (child && !child.exit) return;
      const started = spawnChild(`${name}:${port}`, command, args(port));
      child = started;
      await waitUntil(
        `${name} on port ${port}`,
        async () => {
          if (started.exit) throw new Error(`${name} exited: ${started.output()}`);
          return portIsOpen(port);
        },
        10_000,
        50,
      );
    },
    async stop() {
      const running = child;
      child = undefined;
      await running?.stop('SIGKILL');
    },
  };
  await daemon.start();
  return daemon;
}

/** redis-server that keeps nothing on disk. */
export function startPrivateRedis(): Promise<PrivateDaemon> {
  return privateDaemon(
    'redis-server',
    (p) => `redis://127.0.0.1:${p}`,
    process.env.REDIS_SERVER_BIN ?? 'redis-server',
    (p) => ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp'],
  );
}
