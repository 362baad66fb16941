export const EXIT_OK = 0;
/** Not found, or a failure talking to Postgres or Redis. */
export const EXIT_FAILURE = 1;
/** Bad input: unknown command, missing or malformed flag, invalid configuration. */
export const EXIT_USAGE = 2;
/**
 * The change is in Postgres, but the gateways could not be told over NATS (unreachable, or the
 * CLI's NATS user may not publish the event): they apply it when their key cache entry expires.
 */
export const EXIT_NOT_BROADCAST = 3;

/** The operator's input is wrong; exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What the operator named does not exist; exit code 1. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** Redis could not be reached or did not answer (the message says why); exit code 1. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}
