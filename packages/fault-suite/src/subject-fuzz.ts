import { DomainError, type ErrorCode } from '@credit/contracts/errors';
import { SUBJECTS, type SubjectName } from '@credit/contracts/subjects';
import { parseRequest } from '@credit/contracts/validate';
import type { NatsConnection } from 'nats';

/**
 * Subject fuzzing over a plain NATS connection, as any process on the bus could: unreadable
 * packets, `null`, empty and oversized payloads, and readable packets whose data breaks the
 * subject's request schema, sent with and without a reply subject.
 */

const text = new TextEncoder();
const encode = (value: unknown) => text.encode(JSON.stringify(value));

/** A request the subject's schema accepts, for `address`. */
export function validRequest(subject: SubjectName, address: string): unknown {
  const shape = (SUBJECTS[subject].request as unknown as { shape: Record<string, unknown> }).shape;
  const fill: Record<string, unknown> = {
    address,
    addresses: [address],
    chain_id: 1,
    include_factors: false,
    total_asset_usd: 1_000,
    source: { name: 'bank', total_asset_usd: 1 },
    // the payments subjects: readable, and refused by the service (no such payment, nothing signed);
    // a request they accept needs a signed payment (the spec makes those)
    x402Version: 1,
    payload: {},
    requirements: {},
    requestId: 'fuzz',
    operation: 'scoreAddress',
    cu: 1,
    resource: 'GET /api/v2/score/address/x',
    // the gateway's deadline, epoch ms: far ahead, so nothing here is swept or given up on
    deadline: 4_102_444_800_000,
    paymentId: 'fuzz-payment',
    statusCode: 404,
  };
  const request = Object.fromEntries(
    Object.keys(shape)
      .map((k) => [k, fill[k]])
      .filter(([, v]) => v !== undefined),
  );
  parseRequest(subject, request);
  return request;
}

/** Payloads no service can read: each must get the contract's bad-request error, or be dropped. */
export function unreadablePayloads(subject: string): [string, Uint8Array][] {
  return [
    ['garbage bytes', Uint8Array.from([0x00, 0xff, 0xfe, 0x7b, 0x22, 0xc3, 0x28])],
    ['an empty payload', new Uint8Array(0)],
    ['null', text.encode('null')],
    ['a number', text.encode('1e308')],
    ['a string', text.encode('"credit"')],
    ['an array', text.encode('[{"id":"1","data":{}}]')],
    ['half a packet', text.encode(`{"pattern":"${subject}","data":{"address":`)],
    ['a packet without an id', encode({ pattern: subject, data: {} })],
    ['a packet with a numeric id', encode({ pattern: subject, data: {}, id: 7 })],
    ['a packet with an empty id', encode({ pattern: subject, data: {}, id: '' })],
    ['a packet over 256 KiB', encode({ pattern: subject, data: { address: 'a'.repeat(300 * 1024) }, id: 'huge' })],
    ['a 900 KiB payload of zeros', new Uint8Array(900 * 1024)],
  ];
}

/** Readable packets whose data breaks the request schema: each must get a contract error (never `internal`). */
export function invalidData(subject: SubjectName, address: string): [string, unknown][] {
  const valid = validRequest(subject, address) as Record<string, unknown>;
  const cases: [string, unknown][] = [
    ['data null', null],
    ['data {}', {}],
    ['data an array', [valid]],
    ['data a string', 'address'],
    ['__proto__ keys', JSON.parse(`{"__proto__":${JSON.stringify(valid)}}`)],
    ['an extra field', { ...valid, extra: { deep: [1, 2, 3] } }],
    ['deep nesting', JSON.parse(`${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`)],
  ];
  for (const field of Object.keys(valid)) {
    for (const value of [null, 1e308, -0, '', 'x'.repeat(10_000), [], {}, true, 'constructor', Array(1_000).fill(address)]) {
      cases.push([`${field} = ${JSON.stringify(value).slice(0, 30)}`, { ...valid, [field]: value }]);
    }
  }
  if ('source' in valid) {
    for (const source of [
      { name: 'b', total_asset_usd: 1e308 },
      { name: 'b', count_transactions: 9_007_199_254_740_991 },
      { name: 'b', total_asset_usd: 1e307 },
      { name: '' },
    ]) {
      cases.push([`source = ${JSON.stringify(source)}`, { ...valid, source }]);
    }
  }
  return cases;
}

export const packet = (subject: string, data: unknown, id = 'fuzz') => encode({ pattern: subject, data, id });

export type Outcome =
  { kind: 'reply'; response: unknown } | { kind: 'error'; code: ErrorCode } | { kind: 'unreadable reply'; text: string };

/** One request with a reply subject; rejects when nothing answers within `timeoutMs`. */
export async function ask(nc: NatsConnection, wireSubject: string, payload: Uint8Array, timeoutMs: number): Promise<Outcome> {
  const msg = await nc.request(wireSubject, payload, { timeout: timeoutMs });
  const raw = new TextDecoder().decode(msg.data);
  try {
    const reply = JSON.parse(raw) as { response?: unknown; err?: unknown };
    if (reply.err !== undefined && reply.err !== null) {
      const error = DomainError.fromWire(reply.err);
      return error ? { kind: 'error', code: error.code } : { kind: 'unreadable reply', text: raw.slice(0, 200) };
    }
    return { kind: 'reply', response: reply.response };
  } catch {
    return { kind: 'unreadable reply', text: raw.slice(0, 200) };
  }
}
