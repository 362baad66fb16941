import { DomainError, ERROR_CODES, ERROR_TABLE, errorBody, isErrorCode, statusOf, type ErrorCode } from '../src/errors';

/**
 * The closed error-code set and its docs/API.md §7 mapping (status and body shape). The expectations are
 * written out by hand from docs/API.md §4/§7 and docs/ARCHITECTURE.md "Error bodies", so a change to the
 * table is a deliberate change here too.
 */
const EXPECTED_STATUS: Record<ErrorCode, number> = {
  invalid_parameter: 400,
  invalid_body: 400,
  missing_source_name: 400,
  batch_too_large: 400,
  no_valid_address: 400,
  unsupported_chain: 400,
  invalid_token: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  payment_required: 402,
  forbidden: 403,
  csrf_rejected: 403,
  key_limit_reached: 403,
  address_not_found: 404,
  no_activity: 404,
  no_identity_data: 404,
  chain_not_found: 404,
  route_not_found: 404,
  key_not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  credit_limit_exceeded: 429,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  service_unavailable: 503,
  upstream_timeout: 504,
};

describe('ERROR_TABLE', () => {
  it('holds exactly the expected codes', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(EXPECTED_STATUS).sort());
  });

  it.each(Object.entries(EXPECTED_STATUS) as [ErrorCode, number][])(
    '%s maps to HTTP %i (table, statusOf and DomainError.status agree)',
    (code, status) => {
      expect(ERROR_TABLE[code].status).toBe(status);
      expect(statusOf(code)).toBe(status);
      expect(new DomainError(code, 'm').status).toBe(status);
    },
  );

  it('gives the body shapes of docs/API.md §7 for the rules docs/API.md §4 spells out', () => {
    // docs/API.md §4.1 rule 1 / §4.2 aggregated rule 3: {error, status_code}
    expect(ERROR_TABLE.no_valid_address.shape).toBe('error_status');
    // docs/API.md §4.1 rule 2: batch over 100 → `detail`
    expect(ERROR_TABLE.batch_too_large.shape).toBe('detail');
    // docs/API.md §4.2 enhanced rule 3: missing name → `error`
    expect(ERROR_TABLE.missing_source_name.shape).toBe('error');
    // ARCHITECTURE 6: bad body field → {error}; bad path/query parameter → {detail}
    expect(ERROR_TABLE.invalid_body.shape).toBe('error');
    expect(ERROR_TABLE.invalid_parameter.shape).toBe('detail');
    expect(ERROR_TABLE.payment_required.shape).toBe('challenge');
    expect(ERROR_TABLE.credit_limit_exceeded.shape).toBe('detail_object');
    // Every 401/403/404/405/408/413/415/500/503/504 is a `detail` body.
    for (const code of ERROR_CODES) {
      if ([401, 403, 404, 405, 408, 413, 415, 500, 503, 504].includes(statusOf(code))) {
        expect([code, ERROR_TABLE[code].shape]).toEqual([code, 'detail']);
      }
    }
  });
});

describe('isErrorCode', () => {
  it('accepts every code and nothing else, not even Object.prototype keys', () => {
    for (const code of ERROR_CODES) expect(isErrorCode(code)).toBe(true);
    for (const value of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'INTERNAL', '', 'nope', 500, null, undefined, {}]) {
      expect(isErrorCode(value)).toBe(false);
    }
  });
});

describe('errorBody', () => {
  it('detail shape: exactly {detail}', () => {
    expect(errorBody(new DomainError('address_not_found', 'Address not found or invalid: x'))).toStrictEqual({
      detail: 'Address not found or invalid: x',
    });
    expect(errorBody(new DomainError('batch_too_large', 'A batch holds at most 100 addresses'))).toStrictEqual({
      detail: 'A batch holds at most 100 addresses',
    });
    expect(errorBody(new DomainError('upstream_timeout', 'slow down'))).toStrictEqual({ detail: 'slow down' });
  });

  it('the rate limit is a detail object naming its code and when to retry', () => {
    expect(errorBody(new DomainError('rate_limited', 'slow down', { retry_after: 6 }))).toStrictEqual({
      detail: { error: 'rate_limited', message: 'slow down', retry_after: 6 },
    });
  });

  it('error shape: exactly {error}, data never leaks', () => {
    expect(errorBody(new DomainError('missing_source_name', 'Additional data must provide a name field'))).toStrictEqual({
      error: 'Additional data must provide a name field',
    });
    expect(errorBody(new DomainError('invalid_body', 'bad', { internal: 'secret' }))).toStrictEqual({ error: 'bad' });
  });

  it('error_status shape: exactly {error, status_code} with the numeric status', () => {
    expect(errorBody(new DomainError('no_valid_address', 'No valid address supplied'))).toStrictEqual({
      error: 'No valid address supplied',
      status_code: 400,
    });
  });

  it('429 credit limit: {detail: {error: code, message, ...data}}', () => {
    const body = errorBody(new DomainError('credit_limit_exceeded', 'Monthly allowance exhausted', { plan: 'free', monthly_cu: 1000 }));
    expect(body).toStrictEqual({
      detail: { error: 'credit_limit_exceeded', message: 'Monthly allowance exhausted', plan: 'free', monthly_cu: 1000 },
    });
    expect(errorBody(new DomainError('credit_limit_exceeded', 'm'))).toStrictEqual({
      detail: { error: 'credit_limit_exceeded', message: 'm' },
    });
    expect(statusOf('credit_limit_exceeded')).toBe(429);
  });

  it('internal: {detail, error_id} with the id as an extra field', () => {
    const body = errorBody(new DomainError('internal', 'Internal server error', { error_id: 'e-123' }));
    expect(body).toStrictEqual({ detail: 'Internal server error', error_id: 'e-123' });
    expect(errorBody(new DomainError('internal', 'Internal server error'))).toStrictEqual({
      detail: 'Internal server error',
    });
  });

  it('402 challenge: data first, then error and message that data cannot override', () => {
    const body = errorBody(new DomainError('payment_required', 'Payment required', { accepts: [{ network: 'base' }], error: 'spoofed' }));
    expect(body).toStrictEqual({
      accepts: [{ network: 'base' }],
      error: 'authentication_required',
      message: 'Payment required',
    });
  });

  it('every code yields a body (no shape falls through)', () => {
    for (const code of ERROR_CODES) {
      const body = errorBody(new DomainError(code, 'msg'));
      expect(body).toBeDefined();
      expect(JSON.stringify(body)).toContain('msg');
    }
  });
});

describe('DomainError wire form', () => {
  it('is an Error named DomainError carrying code, message and data', () => {
    const e = new DomainError('no_activity', 'no activity', { chain: 1 });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('DomainError');
    expect(e.code).toBe('no_activity');
    expect(e.message).toBe('no activity');
    expect(e.data).toEqual({ chain: 1 });
  });

  it('toWire omits data when there is none', () => {
    expect(new DomainError('forbidden', 'no').toWire()).toStrictEqual({ code: 'forbidden', message: 'no' });
    expect(new DomainError('forbidden', 'no', { a: 1 }).toWire()).toStrictEqual({
      code: 'forbidden',
      message: 'no',
      data: { a: 1 },
    });
  });

  it.each(ERROR_CODES)('fromWire(toWire()) round-trips %s, through JSON too', (code) => {
    for (const original of [new DomainError(code, `message of ${code}`), new DomainError(code, 'with data', { error_id: 'x', n: 2 })]) {
      const back = DomainError.fromWire(JSON.parse(JSON.stringify(original.toWire())));
      expect(back).toBeInstanceOf(DomainError);
      expect(back!.code).toBe(original.code);
      expect(back!.message).toBe(original.message);
      expect(back!.data).toEqual(original.data);
      expect(back!.status).toBe(EXPECTED_STATUS[code]);
      expect(back!.toWire()).toStrictEqual(original.toWire());
    }
  });

  it('fromWire rejects unknown codes and garbage', () => {
    const garbage: unknown[] = [
      undefined,
      null,
      'internal',
      42,
      true,
      [],
      ['internal', 'x'],
      {},
      { code: 'internal' },
      { message: 'x' },
      { code: 'nope', message: 'x' },
      { code: 'toString', message: 'x' },
      { code: '__proto__', message: 'x' },
      { code: 'INTERNAL', message: 'x' },
      { code: 'internal', message: 42 },
      { code: 'internal', message: null },
      { code: 404, message: 'x' },
    ];
    for (const value of garbage) expect(DomainError.fromWire(value)).toBeUndefined();
  });

  it('fromWire drops a data field that is not a plain record', () => {
    for (const data of [[1, 2], 'text', 5, null]) {
      const e = DomainError.fromWire({ code: 'internal', message: 'm', data });
      expect(e).toBeInstanceOf(DomainError);
      expect(e!.data).toBeUndefined();
      expect(errorBody(e!)).toStrictEqual({ detail: 'm' });
    }
  });
});
