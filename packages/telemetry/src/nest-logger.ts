import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';

/**
 * Nest's logger for an app, over its pino logger (nestjs-pino): `new Logger('ctx').log(msg)` in any
 * provider becomes a JSON line with `context` and `msg`. Built by hand, not by `LoggerModule`: the
 * gateway runs no Nest middleware (Fastify without middie) and Nest 11 microservices have no
 * pre-request hook, so the request's ids come from our own context (`./request-ids`) on every line.
 * nestjs-pino keeps one root logger per process: the first app started in a process names the
 * `service` of every Nest log line in it (only tests start several apps in one process).
 */
export function nestLoggerOf(logger: Logger): LoggerService {
  const params = { pinoHttp: { logger, autoLogging: false } };
  return new NestPinoLogger(new PinoLogger(params), params);
}
