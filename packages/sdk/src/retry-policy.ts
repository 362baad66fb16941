/** How the client asks again after a 429 (rate limited) or a 503, for operations that may run twice. */
export interface RetryPolicy {
  /** Further attempts after the first; 0 turns retries off. Default 2. */
  maxRetries: number;
  /** The longest the client waits before one attempt, in ms; a longer Retry-After is not waited for. Default 30 s. */
  maxDelayMs: number;
  /** The wait when the answer names none (a 503 without Retry-After), doubled per attempt. Default 500 ms. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, maxDelayMs: 30_000, baseDelayMs: 500 };

const RETRIED = new Set([429, 503]);

/**
 * The wait before attempt `attempt + 1`, or undefined to give up: only a 429 or a 503; a 429
 * only with a Retry-After (a monthly allowance spent has none: waiting would not help); the wait
 * is Retry-After or the RateLimit header's `t` (seconds until the bucket refills), else a
 * doubling backoff, plus up to 20% jitter so that clients refused together do not return together.
 */
export function retryDelayMs(
  response: Response,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (!RETRIED.has(response.status) || attempt >= policy.maxRetries) return undefined;
  const seconds = headerSeconds(response.headers);
  if (response.status === 429 && seconds === undefined) return undefined;
  const base = seconds === undefined ? policy.baseDelayMs * 2 ** attempt : seconds * 1000;
  const delay = base * (1 + 0.2 * random());
  return delay > policy.maxDelayMs ? undefined : delay;
}

function headerSeconds(headers: Headers): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(seconds, 0);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max((date - Date.now()) / 1000, 0);
  }
  const refill = /;t=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1];
  return headers.get('ratelimit')?.includes(';r=0;') && refill !== undefined ? Number(refill) : undefined;
}
