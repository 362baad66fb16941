import { Gauge } from 'prom-client';
import type { ChainClient } from '@credit/chain/clients';
import type { ChainActivityReader } from '@credit/db/chain-activity-reader';
import { withTimeout } from '@credit/observability/readiness';
import { METRICS } from '@credit/observability/process-registry';

/** How long a scrape waits for the heads and the checkpoints before leaving the gauges as they were. */
const SCRAPE_TIMEOUT_MS = 2_000;

interface ChainProgress {
  chain: string;
  head: bigint;
  /** Absent until the first range of the chain completed. */
  indexed?: bigint;
  lagSeconds?: number;
}

interface ProgressSource {
  clients: readonly ChainClient[];
  index: Pick<ChainActivityReader, 'checkpoints'>;
}

let source: ProgressSource | undefined;

/**
 * Each chain's head (read now) against its checkpoint. The lag is the history between the last
 * indexed block and the head, in seconds of block time; 0 when only the confirmation tail is left
 * (unindexed by design, as `indexFreshness` rules), so it reads the same on a quiet chain as on a busy one.
 */
async function readProgress(): Promise<ChainProgress[] | undefined> {
  if (source === undefined) return undefined;
  const { clients, index } = source;
  const [checkpoints, heads] = await withTimeout(
    Promise.all([
      index.checkpoints(clients.map((c) => c.config.id)),
      Promise.all(clients.map((c) => c.client.getBlock({ blockTag: 'latest' }))),
    ]),
    SCRAPE_TIMEOUT_MS,
    'the chains or the checkpoints did not answer',
  );
  return clients.map((c, i) => {
    const head = heads[i]!;
    const checkpoint = checkpoints.get(c.config.id);
    if (checkpoint === undefined || checkpoint.indexedToAt === null) return { chain: c.config.name, head: head.number };
    const tail = head.number - checkpoint.indexedTo <= BigInt(checkpoint.confirmations);
    const behind = Number(head.timestamp) - Math.floor(checkpoint.indexedToAt.getTime() / 1000);
    return { chain: c.config.name, head: head.number, indexed: checkpoint.indexedTo, lagSeconds: tail ? 0 : Math.max(0, behind) };
  });
}

let reading: Promise<ChainProgress[] | undefined> | undefined;

/** One read shared by the three gauges of a scrape (prom-client collects the families concurrently). */
function readOnce(): Promise<ChainProgress[] | undefined> {
  reading ??= readProgress()
    .catch(() => undefined)
    .finally(() => (reading = undefined));
  return reading;
}

function progressGauge(name: string, help: string, pick: (p: ChainProgress) => number | undefined): void {
  new Gauge({
    name,
    help,
    labelNames: ['chain'] as const,
    registers: [METRICS],
    async collect() {
      for (const progress of (await readOnce()) ?? []) {
        const value = pick(progress);
        if (value !== undefined) this.set({ chain: progress.chain }, value);
      }
    },
  });
}

progressGauge('credit_index_head_block', "The chain's latest block, read at scrape time.", (p) => Number(p.head));
progressGauge('credit_indexed_block', 'The last block indexed without a gap (absent until the first range completed).', (p) =>
  p.indexed === undefined ? undefined : Number(p.indexed),
);
progressGauge(
  'credit_index_lag_seconds',
  'Block time between the last indexed block and the head; 0 when only the confirmation tail is left (absent until the first range completed).',
  (p) => p.lagSeconds,
);

/** Points the gauges at this indexer's chains and database (the last indexer started in a process wins). */
export function watchIndexProgress(clients: readonly ChainClient[], index: Pick<ChainActivityReader, 'checkpoints'>): void {
  source = { clients, index };
}
