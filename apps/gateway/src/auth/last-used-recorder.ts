import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { KEY_STORE, type KeyStore } from './key-store';

/**
 * docs/API.md §2.10's "last used": remembered in memory per key and written to Postgres every few
 * seconds in one statement, so a request never waits on a write. The final batch is written on
 * shutdown.
 */
@Injectable()
export class LastUsedRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(LastUsedRecorder.name);
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(KEY_STORE) private readonly store: KeyStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  record(keyId: string, at = new Date()): void {
    this.pending.set(keyId, at);
  }

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes what is pending; a failed write is kept for the next round (newer times win). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.store.touchLastUsed([...batch].map(([keyId, at]) => ({ keyId, at })));
      } catch (error) {
        for (const [keyId, at] of batch) if (!this.pending.has(keyId)) this.pending.set(keyId, at);
        this.logger.warn(`could not record last-used times: ${(error as Error).message}`);
      }
    });
    return this.flushing;
  }
}
