import type { LogLevel } from '@nestjs/common';

/** Nest's levels, most severe first (the `LOG_LEVEL` values of the config fragments). */
const LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** The levels a Nest app logs at `LOG_LEVEL=level`: that one and every more severe one. */
export function logLevelsUpTo(level: LogLevel): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}
