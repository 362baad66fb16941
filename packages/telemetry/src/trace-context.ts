import { randomFillSync } from 'node:crypto';

/** A W3C trace context (`traceparent`): the trace, the calling span and the sampled flag. */
export interface TraceParent {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

// version-traceid-parentid-flags; a version other than 00 may append fields (W3C Trace Context §3.2.4).
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The `traceparent` a caller sent, or undefined when it is absent or malformed (version ff, an
 * all-zero id, upper case, extra fields on version 00): the request then starts a trace of its own,
 * as the spec asks, and is never refused for it.
 */
export function parseTraceparent(value: unknown): TraceParent | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value);
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(context: TraceParent): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

// Ids come from a pool of random bytes refilled 4 KiB at a time: one CSPRNG call per ~170 requests.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

function randomHex(bytes: number): string {
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
}

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);
