import { Catch, Logger, type RpcExceptionFilter } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import { randomUUID } from 'node:crypto';
import { throwError, type Observable } from 'rxjs';
import { noteRequestFailure } from '@credit/telemetry/request-trace';

/**
 * The one place a service's failure becomes a wire error. A DomainError crosses as its code; any
 * other throw is a bug: it is logged with an error id and crosses as `internal` with that id,
 * never with its message or stack.
 */
@Catch()
export class DomainRpcExceptionFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('rpc');

  catch(exception: unknown): Observable<never> {
    noteRequestFailure(exception instanceof DomainError ? exception.code : 'internal');
    if (exception instanceof DomainError) return throwError(() => exception.toWire());
    const errorId = randomUUID();
    this.logger.error(`unhandled error ${errorId}`, exception instanceof Error ? exception.stack : String(exception));
    return throwError(() => new DomainError('internal', 'Internal server error', { error_id: errorId }).toWire());
  }
}
