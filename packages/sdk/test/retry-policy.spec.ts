import { DEFAULT_RETRY, retryDelayMs } from '../src/retry-policy';

const response = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });
const noJitter = () => 0;
const fullJitter = () => 1;

describe('retryDelayMs', () => {
  it('waits a 429 out for its Retry-After, plus up to 20% jitter', () => {
    expect(retryDelayMs(response(429, { 'retry-after': '2' }), 0, DEFAULT_RETRY, noJitter)).toBe(2000);
    expect(retryDelayMs(response(429, { 'retry-after': '2' }), 0, DEFAULT_RETRY, fullJitter)).toBe(2400);
  });

  it('does not retry a 429 without Retry-After (a spent monthly allowance)', () => {
    expect(retryDelayMs(response(429), 0, DEFAULT_RETRY, noJitter)).toBeUndefined();
  });

  it('reads the RateLimit refill when Retry-After is absent and the bucket is empty', () => {
    expect(retryDelayMs(response(429, { ratelimit: '"api";r=0;t=3' }), 0, DEFAULT_RETRY, noJitter)).toBe(3000);
  });

  it('backs a 503 without Retry-After off, doubling per attempt', () => {
    expect([0, 1].map((attempt) => retryDelayMs(response(503), attempt, DEFAULT_RETRY, noJitter))).toEqual([500, 1000]);
  });

  it('stops after maxRetries, past maxDelayMs, and on any other status', () => {
    expect(retryDelayMs(response(503), 2, DEFAULT_RETRY, noJitter)).toBeUndefined();
    expect(retryDelayMs(response(429, { 'retry-after': '60' }), 0, DEFAULT_RETRY, noJitter)).toBeUndefined();
    expect(retryDelayMs(response(500), 0, DEFAULT_RETRY, noJitter)).toBeUndefined();
    expect(retryDelayMs(response(504, { 'retry-after': '1' }), 0, DEFAULT_RETRY, noJitter)).toBeUndefined();
  });
});
