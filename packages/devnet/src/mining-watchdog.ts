import { rpc } from './json-rpc';

export interface MiningWatchdog {
  /** Blocks the watchdog has mined so far (each one a ready transaction that automine left behind). */
  readonly mined: number;
  stop(): Promise<void>;
}

export interface MiningWatchdogOptions {
  /** How often the pool is looked at; a transaction is flushed after two looks with no block mined. */
  intervalMs?: number;
  warn?: (message: string) => void;
}

/**
 * anvil's automine now and then leaves a ready transaction in its pool unmined (foundry-rs/foundry
 * #10122): the sender waits for a receipt that never comes, and every later transaction of that
 * account queues behind it. A chain mines what it is sent; so the devnet looks at each chain's
 * pool once a second, and when ready transactions have sat there across two looks while automine
 * is on and no block was mined, it mines one block (`evm_mine`, which takes what is ready).
 *
 * It never acts with automine off (the seeding mines its own blocks, at their timestamps), and a
 * pool that is moving (blocks mined between two looks) is left alone, however busy. A chain that
 * does not answer (stopped, restarting) is skipped until it does.
 */
export function startMiningWatchdog(rpcUrl: string, options: MiningWatchdogOptions = {}): MiningWatchdog {
  const intervalMs = options.intervalMs ?? 1_000;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  let stuckAt: { head: bigint; pending: number } | undefined;
  let mined = 0;
  let running: Promise<void> = Promise.resolve();

  const look = async (): Promise<void> => {
    const [status, head] = await Promise.all([
      rpc<{ pending: string }>(rpcUrl, 'txpool_status', []),
      rpc<string>(rpcUrl, 'eth_blockNumber', []),
    ]);
    const pending = Number(status.pending);
    const now = { head: BigInt(head), pending };
    if (pending === 0) {
      stuckAt = undefined;
      return;
    }
    if (stuckAt === undefined || stuckAt.head !== now.head) {
      stuckAt = now;
      return;
    }
    if (!(await rpc<boolean>(rpcUrl, 'anvil_getAutomine', []))) {
      stuckAt = undefined;
      return;
    }
    await rpc(rpcUrl, 'evm_mine', []);
    mined += 1;
    stuckAt = undefined;
    warn(`devnet ${rpcUrl}: ${pending} ready transaction(s) left unmined by automine since block ${now.head}; mined a block for them`);
  };

  const timer = setInterval(() => {
    running = running.then(() => look().catch(() => undefined));
  }, intervalMs);
  timer.unref();

  return {
    get mined() {
      return mined;
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
