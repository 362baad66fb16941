import { CreditApiError } from '../src/credit-api-error';

const error = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new CreditApiError(status, body, new Headers(headers));

describe('CreditApiError', () => {
  it('takes the code a 429 body names', () => {
    const refused = error(429, { detail: { error: 'credit_limit_exceeded', message: 'Monthly CU allowance exceeded' } });
    expect(refused).toMatchObject({ code: 'credit_limit_exceeded', codes: ['credit_limit_exceeded'] });
    expect(refused.message).toBe('HTTP 429: Monthly CU allowance exceeded');
  });

  it('takes the one code a status and body shape allow', () => {
    expect(error(400, { error: 'no valid address', status_code: 400 }).code).toBe('no_valid_address');
    expect(error(504, { detail: 'timed out' }).code).toBe('upstream_timeout');
  });

  it('lists the candidates when several codes share the status and shape', () => {
    const notFound = error(404, { detail: 'Address not found' });
    expect(notFound.code).toBeUndefined();
    expect(notFound.codes).toEqual(expect.arrayContaining(['address_not_found', 'no_activity', 'chain_not_found']));
    expect(notFound.codes).not.toContain('invalid_parameter');
  });

  it('reads Retry-After', () => {
    expect(error(429, { detail: { error: 'rate_limited', message: 'm' } }, { 'retry-after': '7' }).retryAfterSeconds).toBe(7);
    expect(error(503, { detail: 'down' }).retryAfterSeconds).toBeUndefined();
  });
});
