import { join } from 'node:path';
import { deleteKeysWithPrefix } from '@credit/test-world/redis-cleanup';
import { UNLIMITED_RATES } from '@credit/testing/unlimited-rates';
import { killAllChildren, spawnChild, type Child } from './child-process';
import { freePort, waitUntil } from './ports';

/** The repository root (this file is packages/fault-suite/src/apps.ts). */
export const REPO_ROOT = join(__dirname, '..', '..', '..');

export const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The apps with a probe port (`HEALTH_PORT`: `/health`, `/ready`, `/metrics`). */
export type ServiceApp = 'sandbox' | 'scoring' | 'reports' | 'identity' | 'indexer' | 'payments';

/** One of our apps as a child process, from its built `dist/main.js`, configured by environment. */
export interface AppProcess {
  child: Child;
  /** Gateway: its base URL; service: its health port's base URL. */
  url: string;
  /** Stops it (SIGKILL when `kill`) and starts it again with the same environment. */
  restart(options?: { kill?: boolean }): Promise<AppProcess>;
}

function spawnApp(app: string, label: string, env: Record<string, string>): Child {
  return spawnChild(label, process.execPath, [join(REPO_ROOT, 'apps', app, 'dist', 'main.js')], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
  });
}

async function waitHttpReady(child: Child, url: string, timeoutMs: number): Promise<void> {
  await waitUntil(
    `${child.name} ready at ${url}`,
    async () => {
      if (child.exit)
        throw new Error(`${child.name} exited (${child.exit.code ?? child.exit.signal}) before it was ready:\n${child.output()}`);
      return (await fetch(url)).ok;
    },
    timeoutMs,
  );
}

async function startProcess(
  app: string,
  label: string,
  env: Record<string, string>,
  readyPath: string,
  portVar: string,
): Promise<AppProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnApp(app, label, { ...env, [portVar]: String(port) });
  try {
    await waitHttpReady(child, `${url}${readyPath}`, 60_000);
  } catch (error) {
    await child.stop('SIGKILL');
    throw error;
  }
  const running: AppProcess = {
    child,
    url,
    async restart({ kill = false } = {}) {
      await child.stop(kill ? 'SIGKILL' : 'SIGTERM');
      return startProcess(app, label, env, readyPath, portVar);
    },
  };
  return running;
}

/**
 * The gateway on a free port, bound to 127.0.0.1; ready when `/health` answers 200. Its metering
 * uses REDIS_URL under the stack prefix (`deleteGatewayKeys` clears it); rate limits are out of the
 * way unless the test sets them.
 */
export function startGatewayProcess(
  env: { NATS_URL: string; NATS_SUBJECT_PREFIX: string; DATABASE_URL: string } & Record<string, string>,
  label = 'gateway',
): Promise<AppProcess> {
  gatewayPrefixes.add(env.NATS_SUBJECT_PREFIX);
  return startProcess('gateway', label, { HOST: '127.0.0.1', REDIS_URL, ...UNLIMITED_RATES, ...env }, '/health', 'PORT');
}

const gatewayPrefixes = new Set<string>();

/** Kills every child process, then deletes what the gateways' metering left in Redis. */
export async function stopAllApps(): Promise<void> {
  await killAllChildren();
  for (const prefix of gatewayPrefixes) await deleteKeysWithPrefix(REDIS_URL, prefix ? `${prefix}:meter` : 'meter');
  gatewayPrefixes.clear();
}

/**
 * A service replica (or the indexer), started once its probe port's `/health` answers 200: the
 * port opens once the service's subscriptions are up. Not `/ready`, which also waits for its
 * stores and (scoring, reports) for the index to catch up: a test waits for that itself.
 */
export function startServiceProcess(app: ServiceApp, env: Record<string, string>, label: string = app): Promise<AppProcess> {
  return startProcess(app, label, env, '/health', 'HEALTH_PORT');
}
