/**
 * The largest request packet a service reads. Every request field is bounded by its schema or by
 * the gateway's HTTP limits (path parameter 300 characters, query string 16 KiB, and bodies are
 * forwarded as their parsed, bounded fields), so a real packet is a few KiB; 256 KiB leaves ten
 * times the largest (a 100-address aggregate) and caps what a stray publisher makes us parse.
 */
export const MAX_REQUEST_BYTES = 256 * 1024;

export type DecodedRequest = { ok: true; id: string; data: unknown } | { ok: false; reason: string };

// Not `fatal`: invalid UTF-8 becomes U+FFFD (and then fails as JSON), never a throw.
const decoder = new TextDecoder();

/**
 * The one reading of an incoming request packet (`{pattern, data, id}`, contracts rpc-wire).
 * Never throws: anything but a JSON object with a string id within the size bound is a reason.
 */
export function decodeRequest(bytes: Uint8Array): DecodedRequest {
  if (bytes.length > MAX_REQUEST_BYTES) return { ok: false, reason: `larger than ${MAX_REQUEST_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const { id, data } = value as { id?: unknown; data?: unknown };
  if (typeof id !== 'string' || id === '') return { ok: false, reason: 'no string id' };
  return { ok: true, id, data };
}
