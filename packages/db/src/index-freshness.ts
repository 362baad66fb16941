/**
 * Whether the indexer's history of a chain is complete enough to answer from, judged against the
 * head a reader has just read. Pure: no I/O. Scores (and reports) are served only when it is:
 * a wallet scored on history that stops short would read as new or empty, and be cached so.
 */

/** The chain's head as a reader saw it. */
export interface HeadRef {
  number: bigint;
  /** Seconds since the epoch. */
  timestamp: bigint;
}

/** What the indexer has recorded for the chain (see CheckpointRecord). */
export interface IndexProgress {
  indexedTo: bigint;
  /** Timestamp of block `indexedTo`; null before any range completed. */
  indexedToAt: Date | null;
  /** The follower's confirmation depth: the blocks this close to the head are unindexed by design. */
  confirmations: number;
}

export type Freshness = { fresh: true } | { fresh: false; reason: string };

/**
 * - never indexed (no checkpoint, or no completed range yet: a first backfill) → not fresh;
 * - a head older than the indexed history (lower number, or earlier time: the chain was reset, or
 *   its clock went back) → not fresh, never a score measured from the wrong moment;
 * - only the confirmation tail unindexed → fresh, however old the tail is (a quiet chain mines
 *   rarely: its one new block may follow the last indexed one by a day);
 * - otherwise the missing history may span at most `maxLagSeconds`, measured from the last indexed
 *   block to the head. A lag in blocks would mean nothing across chains (on the devnet a block is a
 *   day of history; on Base, two seconds).
 */
export function indexFreshness(chainId: number, head: HeadRef, progress: IndexProgress | undefined, maxLagSeconds: number): Freshness {
  if (progress === undefined || progress.indexedToAt === null) {
    return { fresh: false, reason: `The activity index of chain ${chainId} is still being built; scores resume when it has caught up` };
  }
  const indexedAt = BigInt(Math.floor(progress.indexedToAt.getTime() / 1000));
  if (head.number < progress.indexedTo || head.timestamp < indexedAt) {
    return {
      fresh: false,
      reason:
        `Chain ${chainId}'s head (block ${head.number}, ${iso(head.timestamp)}) is behind its indexed history ` +
        `(block ${progress.indexedTo}, ${iso(indexedAt)}): the chain was reset or its clock went back; scores resume once they agree`,
    };
  }
  const unindexed = head.number - progress.indexedTo;
  if (unindexed <= BigInt(progress.confirmations)) return { fresh: true };
  const lagSeconds = Number(head.timestamp - indexedAt);
  if (lagSeconds <= maxLagSeconds) return { fresh: true };
  return {
    fresh: false,
    reason: `The activity index of chain ${chainId} is ${unindexed} blocks (${duration(lagSeconds)}) behind its head; scores resume when it has caught up`,
  };
}

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

/** "45 s", "12 min", "5 h", "3 days": the lag in a unit a reader takes in at a glance. */
export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} days`;
}
