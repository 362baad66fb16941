import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@credit/testing/private-nats';

/**
 * A PostgreSQL server of the test's own (`initdb` into a temporary directory, `postgres` on a free
 * port, trust authentication for `postgres`), so a test can stop and start the database under the
 * apps. Never the machine's Postgres. As root, the binaries run as the `postgres` user (they refuse
 * root). `PG_BIN_DIR` names the binaries' directory when they are not on the PATH.
 */
export interface PrivatePostgres {
  /** Creates a database (empty) and answers its URL. */
  createDatabase(name: string): string;
  /** Starts the server on its directory and port (again, after `stop`); resolves when it takes connections. */
  start(): Promise<void>;
  /**
   * `fast`: a clean shutdown (SIGINT: sessions ended, a checkpoint written). `immediate`: SIGQUIT,
   * no checkpoint, as a crash: the next start replays the write-ahead log.
   */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

function binary(name: string): string {
  return process.env.PG_BIN_DIR ? join(process.env.PG_BIN_DIR, name) : name;
}

/** The `postgres` user's ids when this process runs as root, for the binaries that refuse root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'credit-webhooks-pg-'));
  const data = join(dir, 'data');
  const user = runAs();
  if (user) chownSync(dir, user.uid, user.gid);
  execFileSync(binary('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
    stdio: 'ignore',
    cwd: dir,
    ...user,
  });
  let child: ChildProcess | undefined;
  const killOnExit = () => child?.kill('SIGQUIT');
  process.once('exit', killOnExit);

  const ready = () =>
    new Promise<boolean>((resolve) =>
      execFile(binary('pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres'], (error) => resolve(error === null)),
    );
  const stop = async (mode: 'fast' | 'immediate') => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
    });
  };
  const start = async () => {
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=60'];
    const started = spawn(binary('postgres'), args, { stdio: 'ignore', cwd: dir, ...user });
    child = started;
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (await ready()) return;
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`postgres did not take connections on port ${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await start();
  return {
    createDatabase(name) {
      execFileSync(binary('createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name], { stdio: 'ignore' });
      return `postgresql://postgres@127.0.0.1:${port}/${name}`;
    },
    start,
    stop,
    async remove() {
      await stop('immediate');
      process.off('exit', killOnExit);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
