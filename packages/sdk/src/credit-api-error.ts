import { ERROR_CODES, ERROR_TABLE, isErrorCode, type ErrorCode } from '@credit/contracts/errors';

/** The HTTP statuses of the API's error table (docs/API.md §7). */
export type ErrorStatus = (typeof ERROR_TABLE)[ErrorCode]['status'];

/**
 * A refused or failed request: its HTTP status, the error body as the API sent it, and its code
 * from the error table where the answer tells it (the 429s and the 402 name theirs; otherwise a
 * status whose codes share one body shape leaves `code` undefined and lists them in `codes`).
 */
export class CreditApiError extends Error {
  readonly code: ErrorCode | undefined;
  /** The codes of the error table this answer can be. */
  readonly codes: readonly ErrorCode[];

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(`HTTP ${status}: ${messageOf(body)}`);
    this.name = 'CreditApiError';
    this.codes = codesOf(status, body);
    this.code = this.codes.length === 1 ? this.codes[0] : undefined;
  }

  /** Seconds to wait before asking again, when the API said (429 rate_limited, 503). */
  get retryAfterSeconds(): number | undefined {
    const header = Number(this.headers.get('retry-after'));
    return this.headers.has('retry-after') && Number.isFinite(header) ? header : undefined;
  }
}

function codesOf(status: number, body: unknown): ErrorCode[] {
  const detail = (body as { detail?: unknown } | null)?.detail;
  const named = typeof detail === 'object' && detail !== null ? (detail as { error?: unknown }).error : undefined;
  if (isErrorCode(named)) return [named];
  const shape = shapeOf(body);
  return ERROR_CODES.filter((code) => ERROR_TABLE[code].status === status && (shape === undefined || ERROR_TABLE[code].shape === shape));
}

function shapeOf(body: unknown): (typeof ERROR_TABLE)[ErrorCode]['shape'] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  if ('x402Version' in body) return 'challenge';
  if ('status_code' in body) return 'error_status';
  if ('error' in body) return 'error';
  if ('detail' in body) return typeof body.detail === 'object' ? 'detail_object' : 'detail';
  return undefined;
}

function messageOf(body: unknown): string {
  const value = body as { detail?: unknown; error?: unknown; message?: unknown } | null;
  const detail = value?.detail;
  if (typeof detail === 'string') return detail;
  if (typeof detail === 'object' && detail !== null) return String((detail as { message?: unknown }).message ?? 'error');
  return String(value?.message ?? value?.error ?? 'error');
}
