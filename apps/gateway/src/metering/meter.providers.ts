import { Inject, Injectable, Logger, type FactoryProvider, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { redactUrl } from '@credit/config/redact-url';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import type { Db } from '@credit/db/prisma-client';
import { LedgerPipeline } from '@credit/metering/ledger-pipeline';
import { Meter } from '@credit/metering/meter';
import { MeterKeys } from '@credit/metering/meter-keys';
import { DB } from '../db/db.providers';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { CLOCK, type Clock } from './clock';

export const METER_REDIS = Symbol('MeterRedis');

/** How long boot waits for the metering's Redis; afterwards metered routes answer 503 until it is back. */
const READY_WAIT_MS = 2_000;

/**
 * The metering's own connection: no offline queue and one try per command, each bounded by
 * METERING_REDIS_TIMEOUT_MS, so with Redis away a metered request fails closed (503) at once
 * instead of waiting. No auto-pipelining: the `Meter` already sends one script call per turn of
 * the event loop, and ioredis's pipeline per tick around it cost ~4 µs a request of CPU
 * (`pnpm bench:metering-floors`, docs/benchmarks/2026-11-24.md).
 */
export const meterRedisProvider: FactoryProvider<Redis> = {
  provide: METER_REDIS,
  inject: [GATEWAY_CONFIG],
  useFactory: async (config: GatewayConfig) => {
    const redis = new Redis({
      ...redisOptionsFromUrl(config.REDIS_URL),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: config.METERING_REDIS_TIMEOUT_MS,
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    });
    const logger = new Logger('metering');
    redis.on('error', () => undefined); // each failed command reports itself; reconnecting goes on
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), READY_WAIT_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!ready) logger.warn(`Redis at ${redactUrl(config.REDIS_URL)} not ready: metered routes answer 503 until it is`);
    return redis;
  },
};

export const meterProvider: FactoryProvider<Meter> = {
  provide: Meter,
  inject: [METER_REDIS, DB, GATEWAY_CONFIG, CLOCK],
  useFactory: (redis: Redis, db: Db, config: GatewayConfig, clock: Clock) =>
    new Meter(redis, new MeterKeys(config.NATS_SUBJECT_PREFIX), new UsageLedgerRepository(db), clock),
};

export const ledgerPipelineProvider: FactoryProvider<LedgerPipeline> = {
  provide: LedgerPipeline,
  inject: [METER_REDIS, DB, GATEWAY_CONFIG],
  useFactory: (redis: Redis, db: Db, config: GatewayConfig) => {
    const logger = new Logger('ledger');
    return new LedgerPipeline({
      redis,
      connection: { ...redisOptionsFromUrl(config.REDIS_URL), maxRetriesPerRequest: null },
      keys: new MeterKeys(config.NATS_SUBJECT_PREFIX),
      store: new UsageLedgerRepository(db),
      consumer: `${hostname()}:${process.pid}:${Date.now().toString(36)}`,
      flushMs: config.LEDGER_FLUSH_MS,
      batchMax: config.LEDGER_BATCH_MAX,
      claimIdleMs: config.LEDGER_CLAIM_IDLE_MS,
      lockMs: config.LEDGER_JOB_LOCK_MS,
      warn: (message) => logger.warn(message),
    });
  },
};

/**
 * Starts the ledger's pump and writer with the gateway; on shutdown moves what the outbox holds,
 * lets the writer finish its job, then closes the metering connection (before Postgres closes).
 */
@Injectable()
export class MeteringLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('metering');

  constructor(
    private readonly pipeline: LedgerPipeline,
    @Inject(METER_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.METERING === 'off') this.logger.warn('METERING=off: production routes are served without charge or rate limit');
    try {
      await this.pipeline.start();
    } catch (error) {
      // Redis away at boot: the pipeline is started again when it is back.
      this.logger.warn(`ledger pipeline not started: ${(error as Error).message}`);
      this.redis.once(
        'ready',
        () => void this.pipeline.start().catch((e: unknown) => this.logger.warn(`ledger pipeline: ${(e as Error).message}`)),
      );
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pipeline.close().catch((error: unknown) => this.logger.warn(`ledger close: ${(error as Error).message}`));
    this.redis.disconnect();
  }
}
