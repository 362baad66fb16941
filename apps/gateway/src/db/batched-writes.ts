import { Logger } from '@nestjs/common';

export interface BatchedWritesOptions<V> {
  /** What a later value for the same key makes of the earlier one (the newer wins, a sum, …). */
  merge(earlier: V, later: V): V;
  /** Writes one batch in one statement; a rejection keeps the batch for the next round. */
  write(batch: ReadonlyMap<string, V>): Promise<void>;
  /** How often the batch is written (ms). */
  intervalMs: number;
  /** What is written, for the warning when a write fails (`last-used times`). */
  what: string;
  logger: Logger;
}

/**
 * Values kept in memory by key and written to Postgres every few seconds in one statement, so a
 * request never waits on a write: a failed write is merged back under what came since and tried
 * again; the last batch is written on shutdown (`stop`).
 */
export class BatchedWrites<V> {
  private pending = new Map<string, V>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly options: BatchedWritesOptions<V>) {}

  add(key: string, value: V): void {
    const earlier = this.pending.get(key);
    this.pending.set(key, earlier === undefined ? value : this.options.merge(earlier, value));
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes what is pending, after any write still under way. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.options.write(batch);
      } catch (error) {
        const since = this.pending;
        this.pending = batch;
        for (const [key, value] of since) this.add(key, value);
        this.options.logger.warn(`could not record ${this.options.what}: ${(error as Error).message}`);
      }
    });
    return this.flushing;
  }
}
