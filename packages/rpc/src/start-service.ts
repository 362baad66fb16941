import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext, INestMicroservice } from '@nestjs/common';
import type { ServiceName } from '@credit/contracts/subjects';
import { HEALTH_SUBJECTS } from '@credit/contracts/health-subjects';
import { startProbeServer } from '@credit/observability/probe-server';
import { nameProcess } from '@credit/observability/process-registry';
import { Readiness, type ReadinessCheck } from '@credit/observability/readiness';
import type { Server } from 'node:http';
import { ContractNatsServer } from './contract-server';
import { jsonBytes } from './json-bytes';
import { SERVICE_TABLE, type ServiceTable } from './handler-table';
import { appTelemetry } from '@credit/telemetry/app-telemetry';
import { createLogger, type LogLevelSetting } from '@credit/telemetry/logger';
import { natsAuthOf, natsConnectionOptions, type NatsAuth } from './nats-connection';

export interface ServiceBootOptions {
  service: ServiceName;
  natsUrl: string;
  /** The service's NATS user, password and CA, when the server requires them. */
  natsAuth?: NatsAuth;
  /** Requests one replica works on at once (the others wait their turn); no limit when unset. */
  maxInflight?: number;
  /** Requests waiting their turn at most (503 beyond). */
  maxQueued?: number;
  subjectPrefix: string;
  healthPort: number;
  /**
   * What else the service needs to answer correctly (its stores, the index caught up), read from
   * the started application; `/ready` and the health subject also need the NATS connection.
   */
  readiness?: ServiceReadiness;
  logLevel?: LogLevelSetting;
  /** Metrics recorded and served on the probe port (`METRICS`, default on). */
  metrics?: 'on' | 'off';
  /** Logs off in tests. */
  silent?: boolean;
  /** A log line per request answered (`ACCESS_LOG=on`). */
  accessLog?: boolean;
  /** Spans sent over OTLP/HTTP there (`OTEL_EXPORTER_OTLP_ENDPOINT`); unset, tracing is off. */
  otlpEndpoint?: string | undefined;
}

/** A service's readiness checks beyond NATS, from its started application (`ServiceBootOptions.readiness`). */
export type ServiceReadiness = (app: INestApplicationContext) => ReadinessCheck[];

export interface RunningService {
  app: INestMicroservice;
  close(): Promise<void>;
}

/**
 * Starts a NATS microservice: the contract transport in the service's own queue group, serving
 * the module's handler table (its `SERVICE_TABLE` provider), the probe port (`/health`, `/ready`, `/metrics`, see
 * `@credit/observability/probe-server`), the health subject answered while ready, and graceful
 * shutdown on SIGTERM / SIGINT.
 */
export async function startService(module: unknown, options: ServiceBootOptions): Promise<RunningService> {
  nameProcess(options.service, options.metrics);
  const level = options.logLevel ?? 'log';
  const telemetry = appTelemetry(options.service, { ...options, logLevel: level });
  const server = new ContractNatsServer({
    ...natsConnectionOptions({ url: options.natsUrl, name: options.service, ...options.natsAuth }),
    queue: options.service,
    subjectPrefix: options.subjectPrefix,
    ...(options.maxInflight !== undefined ? { maxInflight: options.maxInflight } : {}),
    ...(options.maxQueued !== undefined ? { maxQueued: options.maxQueued } : {}),
    accessLog: telemetry.accessLog,
  });
  const app = await NestFactory.createMicroservice(module as never, {
    strategy: server,
    logger: telemetry.nestLogger,
    bufferLogs: false,
  });
  server.serve(app.get<ServiceTable>(SERVICE_TABLE));
  let closed = false;
  await app.listen();
  const readiness = new Readiness().add(
    {
      name: 'service',
      check: () => {
        if (closed) throw new Error('the service is closing');
      },
    },
    { name: 'nats', check: () => server.assertConnected(1_000) },
    ...(options.readiness?.(app) ?? []),
  );
  const reply = jsonBytes({ service: options.service, ready: true });
  server.answerHealth(HEALTH_SUBJECTS[options.service], reply, async () => (await readiness.verdict()).ready);
  const health: Server | undefined = await startProbeServer(options.healthPort, readiness);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      closed = true;
      health?.close();
      await app.close();
      await telemetry.shutdown();
    })());
  return { app, close };
}

/** For `main.ts`: close cleanly on the signals an orchestrator sends. */
export function closeOnSignals(close: () => Promise<void>, logger?: StopLogger): void {
  let closing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (closing) return; // Ctrl-C sends SIGINT, and a supervisor may then send SIGTERM
      closing = true;
      logger?.info('stopping', { signal });
      void close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger?.error('stop failed', { error: error instanceof Error ? error.message : String(error) });
          process.exit(1);
        },
      );
    });
  }
}

/** What `closeOnSignals` says about a stop: the signal, and why a stop failed. */
export interface StopLogger {
  info(message: string, fields: Record<string, unknown>): void;
  error(message: string, fields: Record<string, unknown>): void;
}

/** The settings every NATS service reads from its environment (the config fragments). */
export interface ServiceEnv {
  NATS_URL: string;
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  NATS_INBOX_PREFIX?: string | undefined;
  MAX_INFLIGHT_REQUESTS?: number;
  MAX_QUEUED_REQUESTS?: number;
  NATS_SUBJECT_PREFIX: string;
  HEALTH_PORT: number;
  LOG_LEVEL: LogLevelSetting;
  ACCESS_LOG?: 'on' | 'off';
  METRICS?: 'on' | 'off';
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}

/**
 * A service's `main.ts` in one call: read the config (a ConfigError stops the boot with its
 * message), start the service (with the `readiness` checks the boot gives, if any), close it
 * on SIGTERM / SIGINT; any boot failure exits 1.
 */
export function runServiceMain(
  service: ServiceName,
  boot: () => { module: unknown; config: ServiceEnv; readiness?: ServiceReadiness },
): void {
  (async () => {
    const { module, config, readiness } = boot();
    const running = await startService(module, {
      service,
      natsUrl: config.NATS_URL,
      natsAuth: natsAuthOf(config),
      ...(config.MAX_INFLIGHT_REQUESTS !== undefined ? { maxInflight: config.MAX_INFLIGHT_REQUESTS } : {}),
      ...(config.MAX_QUEUED_REQUESTS !== undefined ? { maxQueued: config.MAX_QUEUED_REQUESTS } : {}),
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      healthPort: config.HEALTH_PORT,
      ...(readiness ? { readiness } : {}),
      logLevel: config.LOG_LEVEL,
      accessLog: config.ACCESS_LOG === 'on',
      ...(config.METRICS !== undefined ? { metrics: config.METRICS } : {}),
      otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
    });
    closeOnSignals(running.close);
  })().catch((error: unknown) => {
    createLogger(service, { level: 'log' }).fatal(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
