/**
 * The one closed set of error codes. Services throw a DomainError with one of these codes; it
 * crosses NATS as `{ code, message, data? }`; the gateway turns it into the HTTP status and the
 * docs/API.md §7 body shape listed here. Nothing else decides a status.
 */

/** The body shapes of docs/API.md §7 (plus the 402 challenge of docs/API.md §2.11). */
export type ErrorShape =
  | 'detail' //          { detail: text }
  | 'error' //           { error: text }
  | 'error_status' //    { error: text, status_code: integer }
  | 'detail_object' //   { detail: { error: code, message, ...data } }  (docs/API.md §8, the 429s)
  | 'challenge'; //      payment challenge, docs/API.md §2.11

interface ErrorSpec {
  readonly status: number;
  readonly shape: ErrorShape;
}

export const ERROR_TABLE = {
  invalid_parameter: { status: 400, shape: 'detail' },
  invalid_body: { status: 400, shape: 'error' },
  missing_source_name: { status: 400, shape: 'error' },
  batch_too_large: { status: 400, shape: 'detail' },
  no_valid_address: { status: 400, shape: 'error_status' },
  unsupported_chain: { status: 400, shape: 'detail' },
  invalid_token: { status: 400, shape: 'detail' },
  unauthenticated: { status: 401, shape: 'detail' },
  invalid_credentials: { status: 401, shape: 'detail' },
  payment_required: { status: 402, shape: 'challenge' },
  forbidden: { status: 403, shape: 'detail' },
  csrf_rejected: { status: 403, shape: 'detail' },
  key_limit_reached: { status: 403, shape: 'detail' },
  address_not_found: { status: 404, shape: 'detail' },
  no_activity: { status: 404, shape: 'detail' },
  no_identity_data: { status: 404, shape: 'detail' },
  chain_not_found: { status: 404, shape: 'detail' },
  route_not_found: { status: 404, shape: 'detail' },
  key_not_found: { status: 404, shape: 'detail' },
  method_not_allowed: { status: 405, shape: 'detail' },
  request_timeout: { status: 408, shape: 'detail' },
  payload_too_large: { status: 413, shape: 'detail' },
  uri_too_long: { status: 414, shape: 'detail' },
  unsupported_media_type: { status: 415, shape: 'detail' },
  credit_limit_exceeded: { status: 429, shape: 'detail_object' },
  rate_limited: { status: 429, shape: 'detail_object' },
  headers_too_large: { status: 431, shape: 'detail' },
  internal: { status: 500, shape: 'detail' },
  service_unavailable: { status: 503, shape: 'detail' },
  upstream_timeout: { status: 504, shape: 'detail' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_TABLE;

export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_TABLE, value);
}

export function statusOf(code: ErrorCode): number {
  return ERROR_TABLE[code].status;
}

/** What a DomainError looks like on the wire (inside Nest's `err` field). */
export interface WireError {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return statusOf(this.code);
  }

  toWire(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromWire(value: unknown): DomainError | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const { code, message, data } = value as Partial<WireError>;
    if (!isErrorCode(code) || typeof message !== 'string') return undefined;
    return new DomainError(code, message, isRecord(data) ? data : undefined);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The HTTP body for an error, in the docs/API.md §7 shape its code calls for. The 402 challenge body is
 * built by the payment layer (it needs the price and the networks); here it falls back to `data`.
 */
export function errorBody(error: DomainError): Record<string, unknown> {
  const spec = ERROR_TABLE[error.code];
  switch (spec.shape) {
    case 'detail':
      // `data` carries extras such as the error id of a 500, never internals.
      return error.data === undefined ? { detail: error.message } : { detail: error.message, ...error.data };
    case 'error':
      return { error: error.message };
    case 'error_status':
      return { error: error.message, status_code: spec.status };
    case 'detail_object':
      return { detail: { error: error.code, message: error.message, ...(error.data ?? {}) } };
    case 'challenge':
      return { ...(error.data ?? {}), error: 'authentication_required', message: error.message };
  }
}
