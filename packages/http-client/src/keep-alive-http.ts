import http from 'node:http';
import https from 'node:https';
import { http as httpTransport, type HttpTransport, type HttpTransportConfig } from 'viem';

/** One HTTP request: a JSON-RPC call or a provider's API. */
export interface HttpExchange {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal | null;
  /** The most of the answer's body read; beyond it the exchange fails (`BodyTooLargeError`). */
  maxBodyBytes: number;
  /**
   * Whether the request may reach the server twice without harm (a read), or a test of its body
   * that says so (`onlyReads`), run only when it matters. Only such a request is sent again when a
   * kept socket turns out to be closed under it; anything else fails as `fetch` would fail it.
   */
  repeatable?: boolean | ((body: string) => boolean);
}

export interface HttpAnswer {
  status: number;
  statusText: string;
  /** Lower-case names, as Node gives them. */
  headers: http.IncomingHttpHeaders;
  text: string;
}

export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';

  constructor(readonly maxBodyBytes: number) {
    super(`the answer is larger than ${maxBodyBytes} bytes`);
  }
}

/**
 * One keep-alive agent per scheme for the whole process: an answered request leaves its socket
 * open for the next one to the same host. An idle socket is closed after 1 s (or sooner when the
 * server's `Keep-Alive: timeout` hint says so): a cold reading's calls come in bursts, well inside
 * it, and a server's usual 5 s idle limit closes a socket as a request is written to it only if this
 * process's timers run 4 s late. A request itself may take longer than 1 s (its caller's signal
 * bounds it).
 */
const IDLE_SOCKET_MS = 1_000;
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/**
 * Sends `exchange` with Node's own HTTP client over a kept-alive socket and reads the whole answer,
 * at most `maxBodyBytes` of it. The same request through the global `fetch` costs three to four
 * times the CPU (docs/BENCHMARKS.md, "Outbound HTTP without fetch"): its WHATWG streams,
 * `Request` and `Headers` objects are built for every call. Rejects with the signal's reason when
 * it aborts, with `BodyTooLargeError`, or with the socket's error.
 */
export async function sendHttp(exchange: HttpExchange): Promise<HttpAnswer> {
  try {
    return await sendOnce(exchange);
  } catch (error) {
    // A kept socket the server closed as the request left it (ECONNRESET before any answer). The
    // server may still have taken the request, so only a read is sent once more on a fresh socket
    // (Node's documented remedy for idempotent requests); a write fails, as it would through fetch.
    if (error instanceof StaleSocketError && isRepeatable(exchange)) return sendOnce(exchange);
    throw error;
  }
}

class StaleSocketError extends Error {}

function isRepeatable({ repeatable, body }: HttpExchange): boolean {
  return typeof repeatable === 'function' ? repeatable(body ?? '') : repeatable === true;
}

function sendOnce(exchange: HttpExchange): Promise<HttpAnswer> {
  const { signal } = exchange;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<HttpAnswer>((resolve, reject) => {
    const url = new URL(exchange.url);
    const agent = AGENTS[url.protocol as keyof typeof AGENTS];
    if (!agent) return reject(new Error(`unsupported URL scheme ${url.protocol}`));
    const headers: Record<string, string> = { ...exchange.headers };
    if (url.username !== '' && headers.authorization === undefined && headers.Authorization === undefined) {
      const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
    }
    if (exchange.body !== undefined) headers['content-length'] = String(Buffer.byteLength(exchange.body));
    const send = url.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    };
    let answered = false;
    const request = send(url, { method: exchange.method, headers, agent }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > exchange.maxBodyBytes) {
          response.destroy();
          fail(new BodyTooLargeError(exchange.maxBodyBytes));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('end', () => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    const onAbort = () => {
      fail(signal!.reason as Error);
      request.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail(request.reusedSocket && error.code === 'ECONNRESET' && !answered ? new StaleSocketError(error.message) : error),
    );
    request.end(exchange.body);
  });
}

/** The answer as the part of a `Response` viem's HTTP transport reads (status, headers, text). */
function responseOf(answer: HttpAnswer): Response {
  const header = (name: string): string | null => {
    const value = answer.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    ok: answer.status >= 200 && answer.status <= 299,
    status: answer.status,
    statusText: answer.statusText,
    headers: { get: header, has: (name: string) => header(name) !== null } as Headers,
    body: null,
    text: () => Promise.resolve(answer.text),
    json: () => Promise.resolve(JSON.parse(answer.text) as unknown),
  } as unknown as Response;
}

/**
 * JSON-RPC methods that only read (`eth_get*` and these): a request made of them alone may be sent
 * twice. Everything else (a transaction sent, a node's test method) may change the node's state.
 */
const READ_METHODS = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'net_version',
  'web3_clientVersion',
]);

/** Whether every call of a JSON-RPC body (one call or a batch) only reads. */
export function onlyReads(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  return (
    calls.length > 0 &&
    calls.every((call: unknown) => {
      const method = (call as { method?: unknown } | null)?.method;
      return typeof method === 'string' && (method.startsWith('eth_get') || READ_METHODS.has(method));
    })
  );
}

/** viem's JSON-RPC answers are read to this size at most (viem's own default). */
export const MAX_RPC_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A `fetch` for viem's HTTP transport (`http(url, { fetchFn })`): the JSON-RPC call sent by
 * `sendHttp`. viem passes a URL string and an init with a string body, a header record, the method
 * and its signal; nothing else is supported.
 */
export async function keepAliveFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  if (typeof input !== 'string' && !(input instanceof URL)) throw new Error('keepAliveFetch takes a URL, not a Request');
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string')
    throw new Error('keepAliveFetch sends string bodies only');
  const answer = await sendHttp({
    url: String(input),
    method: init.method ?? 'GET',
    headers: (init.headers ?? {}) as Record<string, string>,
    ...(typeof init.body === 'string' ? { body: init.body, repeatable: onlyReads } : {}),
    signal: init.signal ?? null,
    maxBodyBytes: MAX_RPC_BODY_BYTES,
  });
  return responseOf(answer);
}

/** viem's HTTP transport sending through `keepAliveFetch` (every chain client of the apps uses it). */
export function keepAliveHttp(url: string, config: Omit<HttpTransportConfig, 'fetchFn' | 'maxResponseBodySize'> = {}): HttpTransport {
  return httpTransport(url, { ...config, fetchFn: keepAliveFetch, maxResponseBodySize: false });
}
