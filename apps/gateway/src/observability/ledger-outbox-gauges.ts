import type { Redis } from 'ioredis';
import { Gauge } from 'prom-client';
import { withTimeout } from '@credit/observability/readiness';
import { METRICS } from '@credit/observability/process-registry';

/** How long a scrape waits for Redis before leaving the outbox gauges out of its answer. */
const SCRAPE_TIMEOUT_MS = 500;

interface OutboxSource {
  redis: Redis;
  outbox: string;
  now: () => number;
}

let source: OutboxSource | undefined;

/** What the scrape reads: `XLEN`, and the oldest entry's id (`<ms>-<seq>`, the time it was appended). */
async function readOutbox(): Promise<{ depth: number; ageSeconds: number } | undefined> {
  if (source === undefined) return undefined;
  const { redis, outbox, now } = source;
  const [depth, oldest] = await withTimeout(
    Promise.all([redis.xlen(outbox), redis.xrange(outbox, '-', '+', 'COUNT', 1)]),
    SCRAPE_TIMEOUT_MS,
    'the ledger outbox did not answer',
  );
  const first = oldest[0]?.[0];
  return { depth, ageSeconds: first === undefined ? 0 : Math.max(0, (now() - Number(first.split('-')[0])) / 1000) };
}

let reading: Promise<{ depth: number; ageSeconds: number } | undefined> | undefined;

/** One read shared by both gauges of a scrape (prom-client collects the families concurrently). */
function readOnce(): Promise<{ depth: number; ageSeconds: number } | undefined> {
  reading ??= readOutbox()
    .catch(() => undefined)
    .finally(() => (reading = undefined));
  return reading;
}

/**
 * The metering outbox (a Redis stream the metering script appends to; entries leave it once the
 * ledger writer has them in Postgres), read at scrape time. Redis away or slow: the gauges keep
 * their last value and the scrape still answers (the metering's own 503s say Redis is away).
 */
new Gauge({
  name: 'credit_ledger_outbox_depth',
  help: 'Entries in the metering outbox not yet written to the Postgres ledger.',
  registers: [METRICS],
  async collect() {
    const read = await readOnce();
    if (read !== undefined) this.set(read.depth);
  },
});

new Gauge({
  name: 'credit_ledger_outbox_age_seconds',
  help: 'Age of the oldest entry in the metering outbox (0 when it is empty): how far the Postgres ledger is behind.',
  registers: [METRICS],
  async collect() {
    const read = await readOnce();
    if (read !== undefined) this.set(read.ageSeconds);
  },
});

/** Points the gauges at this gateway's outbox (the last gateway started in a process wins). */
export function watchLedgerOutbox(redis: Redis, outbox: string, now: () => number = Date.now): void {
  source = { redis, outbox, now };
}
