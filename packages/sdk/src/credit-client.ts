import { AGENT_TOOLS, httpCallOf, type OperationReply, type OperationRequest } from '@credit/contracts/agent-tools';
import { HTTP_OPERATIONS, OPERATION_IDS, type OperationId, type Variant } from '@credit/contracts/http-operations';
import { CreditApiError } from './credit-api-error';
import { DEFAULT_RETRY, retryDelayMs, type RetryPolicy } from './retry-policy';

export interface CreditClientOptions {
  /** The API's origin, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** A bearer API key (`csk_…`). Without one, production calls need a paying `fetch` (`@credit/sdk/x402`). */
  apiKey?: string;
  /** Every call goes to the sandbox: free, deterministic mock data (a key is still needed). */
  sandbox?: boolean;
  /** The fetch to use: the global one by default, or `payingFetch(…)` to pay per request over x402. */
  fetch?: typeof globalThis.fetch;
  /** Retries on 429 and 503 for operations that may run twice; `{ maxRetries: 0 }` turns them off. */
  retry?: Partial<RetryPolicy>;
}

/** An answer with what it cost. */
export interface CreditResult<T> {
  data: T;
  /** `X-CU-Cost`: the CU this answer was charged (null when paid over x402). */
  cuCost: number | null;
  /** `X-CU-Remaining`: CU left this month (null when unlimited or paid over x402). */
  cuRemaining: number | null;
  /** The IETF `RateLimit` field after this request, e.g. `"api";r=99;t=1`. */
  rateLimit: string | null;
  requestId: string | null;
  /** Attempts made, retries included. */
  attempts: number;
  headers: Headers;
}

type MethodName<K extends OperationId> = (typeof AGENT_TOOLS)[K]['method'];

/** One method per operation, named as `AGENT_TOOLS` says, typed by its request and the variant's reply. */
export type CreditMethods<V extends Variant> = {
  [K in OperationId as MethodName<K>]: (
    request: OperationRequest<K>,
    init?: { signal?: AbortSignal },
  ) => Promise<CreditResult<OperationReply<K, V>>>;
};

export type CreditClient<V extends Variant = 'production'> = CreditMethods<V> & { readonly variant: V };

/** A client of the API; `sandbox: true` types every answer as the sandbox's. */
export function createCreditClient<const O extends CreditClientOptions>(
  options: O,
): CreditClient<O extends { sandbox: true } ? 'sandbox' : 'production'> {
  const variant: Variant = options.sandbox === true ? 'sandbox' : 'production';
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, '');
  const methods = Object.fromEntries(
    OPERATION_IDS.map((id) => [
      AGENT_TOOLS[id].method,
      (request: Record<string, unknown>, init: { signal?: AbortSignal } = {}) =>
        send(id, variant, request, {
          base,
          apiKey: options.apiKey,
          doFetch,
          retry: mayRetry(id, variant) ? retry : NO_RETRY,
          signal: init.signal,
        }),
    ]),
  );
  return { ...methods, variant } as unknown as CreditClient<O extends { sandbox: true } ? 'sandbox' : 'production'>;
}

const NO_RETRY: RetryPolicy = { ...DEFAULT_RETRY, maxRetries: 0 };

/** Only a subject that may run twice is asked again (every read today). */
function mayRetry(id: OperationId, variant: Variant): boolean {
  return HTTP_OPERATIONS[id].definitions[variant].attemptTimeoutMs !== undefined;
}

interface SendContext {
  base: string;
  apiKey: string | undefined;
  doFetch: typeof globalThis.fetch;
  retry: RetryPolicy;
  signal: AbortSignal | undefined;
}

async function send(
  id: OperationId,
  variant: Variant,
  request: Record<string, unknown>,
  context: SendContext,
): Promise<CreditResult<unknown>> {
  const call = httpCallOf(id, variant, request);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (context.apiKey !== undefined) headers.authorization = `Bearer ${context.apiKey}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    const response = await context.doFetch(`${context.base}${call.url}`, {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
    const body: unknown = await response.json().catch(() => null);
    if (response.ok) return resultOf(body, response, attempt + 1);
    const delay = retryDelayMs(response, attempt, context.retry);
    if (delay === undefined) throw new CreditApiError(response.status, body, response.headers);
    await sleep(delay, context.signal);
  }
}

function resultOf(data: unknown, response: Response, attempts: number): CreditResult<unknown> {
  const number = (name: string) => (response.headers.has(name) ? Number(response.headers.get(name)) : null);
  return {
    data,
    cuCost: number('x-cu-cost'),
    cuRemaining: number('x-cu-remaining'),
    rateLimit: response.headers.get('ratelimit'),
    requestId: response.headers.get('x-request-id'),
    attempts,
    headers: response.headers,
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
