/**
 * One condition an app needs to answer correctly right now (NATS connected, Postgres reachable,
 * the index caught up). `check` resolves when it holds and throws (or rejects) with the reason
 * when it does not.
 */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void> | void;
}

export interface ReadinessVerdict {
  ready: boolean;
  /** The checks that failed, each with its reason. */
  failing: { name: string; reason: string }[];
}

export interface ReadinessOptions {
  /** Each check's time limit: one that takes longer fails (a store that hangs is not reachable). */
  timeoutMs?: number;
  /** How long a verdict is reused, so probes and health requests arriving together cost one run. */
  reuseMs?: number;
  now?: () => number;
}

/**
 * An app's readiness: its checks run together, each within `timeoutMs`; the verdict is reused for
 * `reuseMs` and concurrent askers share one run. Checks are added as the app's parts start.
 */
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private last: { at: number; verdict: Promise<ReadinessVerdict> } | undefined;
  private readonly timeoutMs: number;
  private readonly reuseMs: number;
  private readonly now: () => number;

  constructor(options: ReadinessOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 2_000;
    this.reuseMs = options.reuseMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  add(...checks: ReadinessCheck[]): this {
    this.checks.push(...checks);
    this.last = undefined;
    return this;
  }

  verdict(): Promise<ReadinessVerdict> {
    const at = this.now();
    if (this.last !== undefined && at - this.last.at < this.reuseMs) return this.last.verdict;
    const verdict = this.run();
    this.last = { at, verdict };
    return verdict;
  }

  private async run(): Promise<ReadinessVerdict> {
    const results = await Promise.all(
      this.checks.map(async ({ name, check }) => {
        try {
          await withTimeout(Promise.resolve().then(check), this.timeoutMs, `${name} did not answer within ${this.timeoutMs} ms`);
          return undefined;
        } catch (error) {
          return { name, reason: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
    const failing = results.filter((r) => r !== undefined);
    return { ready: failing.length === 0, failing };
  }
}

/** `work`, or a rejection with `message` once `ms` have passed (the timer never holds the process open). */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
