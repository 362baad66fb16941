import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Level, type Logger } from 'pino';
import { currentRequestIds } from './request-ids';
import { REDACT, redactMessage } from './redaction';

export type { Logger } from 'pino';

/** The `LOG_LEVEL` values (Nest's names, packages/config `logEnv`) and pino's level for each. */
export type LogLevelSetting = 'silent' | 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose';
const PINO_LEVEL: Record<LogLevelSetting, Level | 'silent'> = {
  silent: 'silent',
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

export interface LoggerOptions {
  level: LogLevelSetting;
  /** Where the JSON lines go; standard output when unset (tests pass a stream to read them). */
  destination?: DestinationStream;
}

/** Standard error as a destination (a command-line tool keeps standard output for its results). */
export const standardError = (): DestinationStream => pino.destination({ dest: 2, sync: true });

/**
 * The one logger of every app: JSON lines with `service`, `level` (a name), `time` (ISO 8601) and
 * `msg`, plus `request_id` and `trace_id` on every line written while a request is handled (the
 * request's AsyncLocalStorage, `./request-ids`). Secrets are redacted (`./redaction`).
 */
export function createLogger(service: string, options: LoggerOptions): Logger {
  return pino(
    {
      level: PINO_LEVEL[options.level],
      base: { service },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A fresh object each line: pino merges the line's own fields into it.
      mixin: () => {
        const ids = currentRequestIds();
        return ids === undefined ? {} : { request_id: ids.requestId, trace_id: ids.traceId };
      },
      redact: REDACT,
      serializers: { err: redactedError },
      hooks: {
        logMethod(args, method) {
          const [first, second, ...rest] = args as unknown[];
          if (typeof first === 'string') return method.apply(this, [redactMessage(first), ...args.slice(1)] as never);
          if (typeof second === 'string') return method.apply(this, [first, redactMessage(second), ...rest] as never);
          return method.apply(this, args);
        },
      },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** pino's error serializer, with URL passwords hidden in the message and the stack. */
function redactedError(error: Error): ReturnType<typeof stdSerializers.err> {
  const serialized = stdSerializers.err(error);
  serialized.message = redactMessage(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = redactMessage(serialized.stack);
  return serialized;
}
