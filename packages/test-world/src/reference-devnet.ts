import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevnet, type Devnet } from '@credit/devnet/devnet';
import { referenceDevnetOptions } from '@credit/devnet/seed/reference-world';

/** Where the reference world is saved between runs (the devnet checks it still matches the code). */
export const REFERENCE_WORLD_DIR = join(tmpdir(), 'credit-reference-world');

const LOCK_WAIT_MS = 5 * 60_000;
/** A lock older than this was left by a process that died while starting the world. */
const STALE_LOCK_MS = 10 * 60_000;

/** Waits until this process holds `path` (created exclusively), then returns its release. */
async function lock(path: string): Promise<() => void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(path, 'wx'));
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = (() => {
        try {
          return Date.now() - statSync(path).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (age > STALE_LOCK_MS) rmSync(path, { force: true });
      else if (Date.now() > deadline) {
        throw new Error(`the reference world at ${REFERENCE_WORLD_DIR} stayed locked for ${LOCK_WAIT_MS} ms`, { cause: error });
      } else await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * The reference world of docs/MODEL.md (`referenceDevnetOptions`), seeded once and saved in
 * `REFERENCE_WORLD_DIR`: later starts load the saved chains instead of seeding them again (the
 * devnet reuses a saved world only when its contracts, chains, recipe and seed still match, and
 * seeds afresh over it otherwise). The saved world is never written after its seeding, so every
 * start sees the same chains; a lock makes concurrent starts (parallel test workers, a bench)
 * wait for the one that seeds. A loaded world answers for its head and its logs, but anvil serves
 * no state of blocks it loaded rather than mined (`eth_call` at a past block fails): the model
 * card's pre-shock reading seeds its own world.
 */
export async function startReferenceDevnet(): Promise<Devnet> {
  mkdirSync(REFERENCE_WORLD_DIR, { recursive: true });
  const release = await lock(join(REFERENCE_WORLD_DIR, '.lock'));
  try {
    return await startDevnet({ ...referenceDevnetOptions(), stateDir: REFERENCE_WORLD_DIR });
  } finally {
    release();
  }
}
