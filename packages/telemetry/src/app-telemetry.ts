import type { LoggerService } from '@nestjs/common';
import { createLogger, type LogLevelSetting, type Logger } from './logger';
import { nestLoggerOf } from './nest-logger';
import { dropRequestContext } from './request-ids';
import { activeTracer, startTracing } from './tracing';

export interface AppTelemetryOptions {
  logLevel: LogLevelSetting;
  /** Logs off (tests). */
  silent?: boolean | undefined;
  /** One line per request handled (`ACCESS_LOG=on`). */
  accessLog?: boolean | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans made and sent there; unset, none. */
  otlpEndpoint?: string | undefined;
}

export interface AppTelemetry {
  /** Nest's logger for the app (`false`: silent). */
  nestLogger: LoggerService | false;
  /** The logger of the access lines, when they are on. */
  accessLog: Logger | undefined;
  /** Sends the spans still buffered (on close). */
  shutdown(): Promise<void>;
}

/** A Nest app's logs (JSON lines through one pino logger, Nest's own lines too) and traces. */
export function appTelemetry(app: string, options: AppTelemetryOptions): AppTelemetry {
  const tracing = startTracing(app, options.otlpEndpoint);
  const shutdown = () => tracing.shutdown();
  if (options.logLevel === 'silent' && activeTracer() === undefined) dropRequestContext();
  if (options.silent || options.logLevel === 'silent') return { nestLogger: false, accessLog: undefined, shutdown };
  const logger = createLogger(app, { level: options.logLevel });
  return { nestLogger: nestLoggerOf(logger), accessLog: options.accessLog ? logger : undefined, shutdown };
}
