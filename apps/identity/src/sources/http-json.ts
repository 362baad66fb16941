import type { z } from 'zod';
import { BodyTooLargeError, sendHttp, type HttpAnswer } from '@credit/http-client/keep-alive-http';

/** What went wrong with a provider's answer, for logs and counters. */
export type ProviderErrorKind = 'network' | 'auth' | 'status' | 'not-json' | 'shape';

/**
 * A provider answered something this service cannot use, or did not answer at all. Never caught
 * and replaced with made-up data: the caller leaves the source out of the reply instead.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';

  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
  }
}

/** One JSON request to a provider, and the documented shape of its answer. */
export interface JsonRequest<T> {
  /** The provider's name, as it appears in error messages. */
  provider: string;
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Sent as JSON (with `content-type: application/json`) when present. */
  body?: unknown;
  signal: AbortSignal;
  /** The documented shape of a 2xx body. */
  schema: z.ZodType<T>;
  /**
   * How the provider says "nothing on this address" with a status (e.g. Neynar's 404): that status
   * gives `undefined`, provided the body is JSON of the documented error shape (so an HTML 404 of a
   * misconfigured proxy is still an error).
   */
  notFound?: { status: number; schema: z.ZodType<unknown> };
}

const SNIPPET_LENGTH = 120;

/**
 * Sends the request and returns the body parsed and checked against `schema`, or `undefined` for
 * the provider's documented "not found". Throws a {@link ProviderError} on a network failure, a
 * 401/403 (the key), any other non-2xx, a body that is not JSON (an HTML page) or not of the
 * documented shape. When `signal` aborts, throws its reason (the abort or timeout error) as is.
 */
export async function requestJson<T>(request: JsonRequest<T>): Promise<T | undefined> {
  const { provider, signal } = request;
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (request.body !== undefined) headers['content-type'] = 'application/json';

  let response: HttpAnswer;
  try {
    response = await sendHttp({
      url: request.url,
      method: request.method ?? 'GET',
      headers,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal,
      maxBodyBytes: MAX_BODY_BYTES,
      // every provider request is a lookup (Lens's POST carries a GraphQL query, never a mutation)
      repeatable: true,
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    if (error instanceof BodyTooLargeError) throw new ProviderError(provider, 'shape', error.message);
    throw new ProviderError(provider, 'network', `request failed: ${describe(error)}`, undefined, { cause: error });
  }
  const { status, text } = response;
  if (request.notFound && status === request.notFound.status) {
    const body = parseJson(provider, text, response);
    checkShape(provider, request.notFound.schema, body, `a ${status} answer`);
    return undefined;
  }
  if (status === 401 || status === 403) {
    throw new ProviderError(provider, 'auth', `the API key was refused (HTTP ${status}): ${snippet(text)}`, status);
  }
  if (status < 200 || status > 299) {
    throw new ProviderError(provider, 'status', `HTTP ${status}: ${snippet(text)}`, status);
  }
  const body = parseJson(provider, text, response);
  return checkShape(provider, request.schema, body, 'the answer');
}

/** The most of a provider's body read: an identity answer is a few kilobytes; more is not the documented answer. */
export const MAX_BODY_BYTES = 1024 * 1024;

function parseJson(provider: string, text: string, response: HttpAnswer): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const type = response.headers['content-type'] ?? 'no content-type';
    throw new ProviderError(provider, 'not-json', `HTTP ${response.status} body is not JSON (${type}): ${snippet(text)}`, response.status, {
      cause: error,
    });
  }
}

function checkShape<T>(provider: string, schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new ProviderError(provider, 'shape', `${what} is not of the documented shape: ${issues}`, undefined, { cause: result.error });
  }
  return result.data;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH)}…` : flat || '(empty body)';
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** `base` without trailing slashes, so `${base}/path` has exactly one. */
export function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}
