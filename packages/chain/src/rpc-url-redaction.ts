import type { EIP1193RequestFn, Transport } from 'viem';
import { redactUrlsIn } from '@credit/config/redact-url';

/**
 * RPC providers put their API key in the URL (a path segment, a query parameter or user info),
 * and viem writes the URL into its error messages, which reach the logs. Every error leaving a
 * chain transport has its URLs cut down to scheme, host and port (`@credit/config/redact-url`).
 */

const TEXT_FIELDS = ['message', 'shortMessage', 'details', 'url', 'stack'] as const;

/** Redacts an error and its causes in place (viem's errors keep the URL in several fields). */
function redactError<E>(error: E): E {
  const seen = new Set<unknown>();
  for (let e: unknown = error; typeof e === 'object' && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const fields = e as Record<string, unknown>;
    for (const field of TEXT_FIELDS) {
      if (typeof fields[field] === 'string') {
        try {
          fields[field] = redactUrlsIn(fields[field]);
        } catch {
          // a read-only field: left as it is
        }
      }
    }
    if (Array.isArray(fields.metaMessages))
      fields.metaMessages = fields.metaMessages.map((m: unknown) => (typeof m === 'string' ? redactUrlsIn(m) : m));
  }
  return error;
}

/** A transport whose failures never carry the RPC URL's secrets. */
export function redactingTransport(transport: Transport): Transport {
  return (params) => {
    const inner = transport(params);
    const request = (async (args, options) => {
      try {
        return await inner.request(args, options);
      } catch (error) {
        throw redactError(error);
      }
    }) as EIP1193RequestFn;
    return { ...inner, request };
  };
}
