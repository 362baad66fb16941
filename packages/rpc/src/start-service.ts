import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext, INestMicroservice, LogLevel } from '@nestjs/common';
import type { ServiceName } from '@credit/contracts/subjects';
import type { Server } from 'node:http';
import { ContractNatsServer } from './contract-server';
import { DomainRpcExceptionFilter } from './rpc-exception.filter';
import { startHealthServer } from './health-server';
import { logLevelsUpTo } from './log-levels';
import { natsAuthOf, natsConnectionOptions, type NatsAuth } from './nats-connection';

export interface ServiceBootOptions {
  service: ServiceName;
  natsUrl: string;
  /** The service's NATS user, password and CA, when the server requires them. */
  natsAuth?: NatsAuth;
  /** Requests one replica works on at once (503 beyond); no limit when unset. */
  maxInflight?: number;
  subjectPrefix: string;
  healthPort: number;
  /**
   * The service's Prometheus metrics, for `GET /metrics` on the health port (see `MetricsSource`
   * in ./health-server): called on every scrape with the started application, so it can read the
   * counters a provider keeps (`app.get(SomeProvider).metrics()`). Without it `/metrics` is 404.
   */
  metrics?: ServiceMetrics;
  logLevel?: LogLevel;
  /** Logs off in tests. */
  silent?: boolean;
}

/** A service's metrics as text exposition format, read from its started application (`ServiceBootOptions.metrics`). */
export type ServiceMetrics = (app: INestApplicationContext) => string;

export interface RunningService {
  app: INestMicroservice;
  close(): Promise<void>;
}

/**
 * Starts a NATS microservice: the contract transport in the service's own queue group, the one
 * RPC exception filter, a health port (with `/metrics` when the service gives `metrics`), and
 * graceful shutdown on SIGTERM / SIGINT.
 */
export async function startService(module: unknown, options: ServiceBootOptions): Promise<RunningService> {
  const level = options.logLevel ?? 'log';
  const app = await NestFactory.createMicroservice(module as never, {
    strategy: new ContractNatsServer({
      ...natsConnectionOptions({ url: options.natsUrl, name: options.service, ...options.natsAuth }),
      queue: options.service,
      subjectPrefix: options.subjectPrefix,
      ...(options.maxInflight !== undefined ? { maxInflight: options.maxInflight } : {}),
    }),
    logger: options.silent ? false : logLevelsUpTo(level),
    bufferLogs: false,
  });
  app.useGlobalFilters(new DomainRpcExceptionFilter());
  let ready = false;
  await app.listen();
  ready = true;
  const metrics = options.metrics;
  const health: Server | undefined = await startHealthServer(options.healthPort, () => ready, metrics ? () => metrics(app) : undefined);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      ready = false;
      health?.close();
      await app.close();
    })());
  return { app, close };
}

/** For `main.ts`: close cleanly on the signals an orchestrator sends. */
export function closeOnSignals(close: () => Promise<void>): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

/** The settings every NATS service reads from its environment (the config fragments). */
export interface ServiceEnv {
  NATS_URL: string;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  NATS_INBOX_PREFIX?: string | undefined;
  MAX_INFLIGHT_REQUESTS?: number;
  NATS_SUBJECT_PREFIX: string;
  HEALTH_PORT: number;
  LOG_LEVEL: LogLevel;
}

/**
 * A service's `main.ts` in one call: read the config (a ConfigError stops the boot with its
 * message), start the service (with the `metrics` the boot gives, if any, on `/metrics`), close it
 * on SIGTERM / SIGINT; any boot failure exits 1.
 */
export function runServiceMain(service: ServiceName, boot: () => { module: unknown; config: ServiceEnv; metrics?: ServiceMetrics }): void {
  (async () => {
    const { module, config, metrics } = boot();
    const running = await startService(module, {
      service,
      natsUrl: config.NATS_URL,
      natsAuth: natsAuthOf(config),
      ...(config.MAX_INFLIGHT_REQUESTS !== undefined ? { maxInflight: config.MAX_INFLIGHT_REQUESTS } : {}),
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      healthPort: config.HEALTH_PORT,
      ...(metrics ? { metrics } : {}),
      logLevel: config.LOG_LEVEL,
    });
    closeOnSignals(running.close);
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
