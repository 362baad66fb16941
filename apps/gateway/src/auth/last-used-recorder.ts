import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { BatchedWrites } from '../db/batched-writes';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { KEY_STORE, type KeyStore } from './key-store';

/**
 * docs/API.md §2.10's "last used": remembered in memory per key and written to Postgres every few
 * seconds in one statement, so a request never waits on a write. The final batch is written on
 * shutdown.
 */
@Injectable()
export class LastUsedRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly batch: BatchedWrites<Date>;

  constructor(@Inject(KEY_STORE) store: KeyStore, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.batch = new BatchedWrites<Date>({
      merge: (earlier, later) => (later > earlier ? later : earlier),
      write: (batch) => store.touchLastUsed([...batch].map(([keyId, at]) => ({ keyId, at }))),
      intervalMs: config.LAST_USED_FLUSH_MS,
      what: 'last-used times',
      logger: new Logger(LastUsedRecorder.name),
    });
  }

  record(keyId: string, at = new Date()): void {
    this.batch.add(keyId, at);
  }

  onModuleInit(): void {
    this.batch.start();
  }

  /** Before any shutdown hook, so the database is still open for the last write. */
  beforeApplicationShutdown(): Promise<void> {
    return this.batch.stop();
  }
}
