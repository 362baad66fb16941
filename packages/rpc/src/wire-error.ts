import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, type WireError } from '@credit/contracts/errors';
import { noteRequestFailure } from '@credit/telemetry/request-trace';

const logger = new Logger('rpc');

/**
 * The one place a service's failure becomes a wire error. A DomainError crosses as its code; any
 * other throw is a bug: it is logged with an error id and crosses as `internal` with that id,
 * never with its message or stack. Runs inside the request's context, whose failure it notes.
 */
export function wireErrorOf(exception: unknown): WireError {
  noteRequestFailure(exception instanceof DomainError ? exception.code : 'internal');
  if (exception instanceof DomainError) return exception.toWire();
  const errorId = randomUUID();
  logger.error(`unhandled error ${errorId}`, exception instanceof Error ? exception.stack : String(exception));
  return new DomainError('internal', 'Internal server error', { error_id: errorId }).toWire();
}
