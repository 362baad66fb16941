import { createLogger, type LogLevelSetting } from '@credit/telemetry/logger';

/** The indexer's log: JSON lines through the shared logger (`@credit/telemetry`); tests pass `silentLogger`. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The indexer's logger at `level` (LOG_LEVEL). */
export function indexerLogger(level: LogLevelSetting): Logger {
  const log = createLogger('indexer', { level });
  return {
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}

/** At the default level, for an indexer started without a logger. */
export const jsonLogger: Logger = indexerLogger('log');

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
