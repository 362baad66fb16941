import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, errorBody, type ErrorCode } from '@credit/contracts/errors';
import { http429 } from '../observability/gateway-metrics';

/**
 * The one place an HTTP failure becomes a response: a DomainError with its docs/API.md §7 status and body
 * shape; the framework's own errors (unknown route, bad JSON, oversized body) mapped onto the
 * closed code set; anything else a 500 with an error id that is also in the log.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const error = toDomainError(exception, request);
    if (error.code === 'internal') {
      this.logger.error(`request ${request.id} failed`, exception instanceof Error ? exception.stack : String(exception));
    }
    const retryAfter = error.data?.retry_after;
    if (typeof retryAfter === 'number' && !reply.hasHeader('retry-after')) void reply.header('retry-after', String(retryAfter));
    if (error.status === 429) http429.inc({ reason: error.code });
    void reply.status(error.status).send(errorBody(error));
  }
}

export function toDomainError(exception: unknown, request: FastifyRequest): DomainError {
  if (exception instanceof DomainError) {
    if (exception.code === 'internal') {
      const errorId = exception.data?.error_id;
      return new DomainError('internal', 'Internal server error', {
        error_id: typeof errorId === 'string' ? errorId : request.id,
      });
    }
    return exception;
  }
  const status = statusOf(exception);
  const code = FRAMEWORK_CODES[status];
  if (code) return new DomainError(code, frameworkMessage(code, exception, request));
  return new DomainError('internal', 'Internal server error', { error_id: request.id });
}

const FRAMEWORK_CODES: Record<number, ErrorCode | undefined> = {
  400: 'invalid_body',
  414: 'uri_too_long',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

function statusOf(exception: unknown): number {
  if (exception instanceof HttpException) return exception.getStatus();
  const status = (exception as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : 500;
}

function frameworkMessage(code: ErrorCode, exception: unknown, request: FastifyRequest): string {
  switch (code) {
    case 'route_not_found':
      return `Not found: ${request.method} ${request.url.split('?')[0]}`;
    case 'payload_too_large':
      return 'Request body too large';
    case 'uri_too_long':
      return 'A path parameter is too long';
    case 'unsupported_media_type':
      return 'Request body must be application/json';
    case 'invalid_body':
      return `Invalid request body: ${exception instanceof Error ? exception.message : 'unreadable'}`;
    default:
      return exception instanceof Error ? exception.message : code;
  }
}
