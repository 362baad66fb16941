import { createLogger, type LogLevelSetting } from '@credit/telemetry/logger';

/** The worker's log: JSON lines through the shared logger (`@credit/telemetry`); tests pass `silentLogger`. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function webhooksLogger(level: LogLevelSetting): Logger {
  const log = createLogger('webhooks', { level });
  return {
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
