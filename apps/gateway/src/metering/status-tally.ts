import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { statusClassOf, UsageStatusRepository, type StatusClass } from '@credit/db/usage-status-repository';
import { BatchedWrites } from '../db/batched-writes';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { CLOCK, type Clock } from './clock';

const SEPARATOR = '\u0000';
const DAY_MS = 86_400_000;

/**
 * The dashboard's usage per status (issue 39): every production request a key makes, counted in
 * memory by account, key, UTC day and status class (2xx served, 4xx refused, 429, 5xx) and added
 * to `usage_status_daily` every USAGE_STATUS_FLUSH_MS. A count is a few bytes per key and day, so
 * a flood of refused requests costs no write per request; a gateway killed between two writes
 * loses at most one interval's counts (the CU ledger, which bills, is not affected).
 */
@Injectable()
export class StatusTally implements OnModuleInit, BeforeApplicationShutdown {
  private readonly batch: BatchedWrites<number>;
  private day = Number.NaN;
  private dayText = '';

  constructor(
    statuses: UsageStatusRepository,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.batch = new BatchedWrites<number>({
      merge: (earlier, later) => earlier + later,
      write: (batch) =>
        statuses.add(
          [...batch].map(([key, requests]) => {
            const [accountId, keyId, day, statusClass] = key.split(SEPARATOR) as [string, string, string, StatusClass];
            return { accountId, keyId, day, statusClass, requests };
          }),
        ),
      intervalMs: config.USAGE_STATUS_FLUSH_MS,
      what: 'requests by status',
      logger: new Logger(StatusTally.name),
    });
  }

  /** One answered production request of this key. */
  count(accountId: string, keyId: string, statusCode: number): void {
    this.batch.add([accountId, keyId, this.today(), statusClassOf(statusCode)].join(SEPARATOR), 1);
  }

  /** `YYYY-MM-DD` (UTC) of the clock's now, made once a day. */
  private today(): string {
    const day = Math.floor(this.clock() / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.dayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
    }
    return this.dayText;
  }

  /** Writes the counts so far, after any write under way. */
  flush(): Promise<void> {
    return this.batch.flush();
  }

  onModuleInit(): void {
    this.batch.start();
  }

  /** Before any shutdown hook, so the database is still open for the last write. */
  beforeApplicationShutdown(): Promise<void> {
    return this.batch.stop();
  }
}
