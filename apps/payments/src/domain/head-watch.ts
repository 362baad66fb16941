/** Blocks seen at least this far apart make a chain with block times (`HeadWatch.slow`). */
const SLOW_BLOCKS_MS = 100;
/** The head is read this often before the chain's block time is known, then a fifth of it within these bounds. */
const FIRST_POLL_MS = 50;
const FASTEST_POLL_MS = 20;
const SLOWEST_POLL_MS = 500;

interface Waiter {
  after: bigint | undefined;
  resolve(head: bigint | undefined): void;
  timer: NodeJS.Timeout;
}

/**
 * One chain's head, read for every receipt of this process that waits for a block: one
 * `eth_blockNumber` a poll however many settlements wait, and only while some wait. A wait asks
 * for the receipt again when the head moved past the one it last missed at (receipt-wait.ts), not
 * on a timer of its own: on a chain with block times (Base: 2 s) a settlement then reads its
 * receipt about once a block instead of every 250 ms. The time between the heads it saw tells
 * whether blocks come slower than 100 ms apart (`slow`); the devnet's block a transaction does not.
 */
export class HeadWatch {
  private head: bigint | undefined;
  /** When the head last moved, while polling (undefined: polling starts afresh, nothing to measure from). */
  private movedAt: number | undefined;
  private blockMs: number | undefined;
  private readonly waiters = new Set<Waiter>();
  private polling = false;

  constructor(private readonly readHead: () => Promise<bigint>) {}

  /** The chain's blocks came at least 100 ms apart, as last measured. */
  get slow(): boolean {
    return this.blockMs !== undefined && this.blockMs >= SLOW_BLOCKS_MS;
  }

  /** The head as last read (undefined before the first read). */
  latest(): bigint | undefined {
    return this.head;
  }

  /**
   * The head once it is past `after` (at once if the last read already is; `after` undefined:
   * the next read's), or undefined if `until` (epoch ms) comes first. A failed read is tried again
   * at the next poll.
   */
  past(after: bigint | undefined, until: number): Promise<bigint | undefined> {
    if (after !== undefined && this.head !== undefined && this.head > after) return Promise.resolve(this.head);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        after,
        resolve,
        timer: setTimeout(
          () => {
            this.waiters.delete(waiter);
            resolve(undefined);
          },
          Math.max(0, until - Date.now()),
        ),
      };
      this.waiters.add(waiter);
      if (!this.polling) {
        this.polling = true;
        this.movedAt = undefined;
        setTimeout(() => void this.poll(), this.pollMs());
      }
    });
  }

  private pollMs(): number {
    if (this.blockMs === undefined) return FIRST_POLL_MS;
    return Math.min(SLOWEST_POLL_MS, Math.max(FASTEST_POLL_MS, Math.round(this.blockMs / 5)));
  }

  private async poll(): Promise<void> {
    try {
      this.saw(await this.readHead());
    } catch {
      // an unreadable head: read again at the next poll; each wait ends at its own deadline
    }
    if (this.waiters.size === 0) {
      this.polling = false;
      return;
    }
    setTimeout(() => void this.poll(), this.pollMs());
  }

  private saw(head: bigint): void {
    const at = Date.now();
    if (this.head === undefined || head > this.head) {
      // each head is first seen up to a poll after its block: a time measured is off by at most one poll
      if (this.head !== undefined && this.movedAt !== undefined) this.blockMs = (at - this.movedAt) / Number(head - this.head);
      this.movedAt = at;
      this.head = head;
    } else if (this.movedAt === undefined) {
      this.movedAt = at;
    }
    for (const waiter of this.waiters) {
      if (waiter.after !== undefined && head <= waiter.after) continue;
      this.waiters.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.resolve(head);
    }
  }
}
