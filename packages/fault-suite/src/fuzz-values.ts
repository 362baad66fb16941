import type { Prng } from './prng';

/**
 * The pieces of a fuzzed HTTP request: path segments, address lists, query strings, JSON bodies
 * and Authorization headers, each a mix of valid values, edge values and garbage. Everything
 * returned here is already encoded as it goes on the wire (a path segment is what follows `/`).
 */

export const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
const HEX = '0123456789abcdefABCDEF';
const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
  'then',
];
const UNICODE = [
  'ünïcødé.eth',
  '💩.eth',
  'ᏔᎥᏆᎪᏞᏆᏦ.eth',
  'ｖｉｔａｌｉｋ.eth',
  'vi\u200btalik.eth',
  'مرحبا.eth',
  '\u202eevil.eth',
  'a\u0000b',
  '🦊'.repeat(80),
];
const JUNK = [
  "'%20OR%201=1--",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '%00',
  '%',
  '%%',
  '%2',
  '%E0%A4%A',
  '%2e%2e',
  '%2F',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%25',
  '%C0%AE',
  '%ff%fe',
  '..',
  '.',
  '...',
  '~',
  ';',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e308',
  '0x',
  '0X' + 'a'.repeat(40),
];

/** A path segment for `{address}`: valid, near-valid, unicode, percent-encoded, prototype names, long. */
export function addressSegment(r: Prng): string {
  switch (r.int(11)) {
    case 0:
      return VITALIK;
    case 1:
      return r.pick([VITALIK.toLowerCase(), VITALIK.toUpperCase().replace('0X', '0x'), 'vitalik.eth', 'ada.eth']);
    case 2:
      return `0x${r.string(r.between(0, 80), HEX)}`;
    case 3:
      return `${r.string(r.between(1, 70), 'abcdefghijklmnopqrstuvwxyz0123456789-_')}.${r.pick(['eth', 'ETH', 'base.eth', 'xyz', '', 'eth.'])}`;
    case 4:
      return encodeURIComponent(r.pick(UNICODE));
    case 5:
      return r.pick(JUNK);
    case 6:
      return r.pick(PROTOTYPE_NAMES);
    case 7:
      // around Fastify's parameter limit (300) and beyond
      return r.string(r.pick([250, 255, 299, 300, 301, 1_000, 4_000]), 'abcdef0123456789');
    case 8:
      return `${VITALIK}${r.pick(['%20', '%0a', '%09', '.', '..', ',', ',' + VITALIK, '#frag', '%23', '/'])}`;
    case 9:
      // raw Latin-1 bytes, not valid UTF-8 once on the wire
      return r.pick(['\u00e9', 'caf\u00e9.eth', '\u00ff\u00fe', '\u00a0']);
    default:
      return encodeURIComponent(r.string(r.between(1, 30), '!"$&\'()*+,;=:@[]{}|\\^`<> '));
  }
}

/** A `{chain_id}` segment. */
export function chainSegment(r: Prng): string {
  return r.chance(0.4)
    ? r.pick(['1', '8453', '84532', '10', '137'])
    : r.pick([
        '0',
        '-1',
        '1.5',
        '1e3',
        '0x1',
        '9007199254740993',
        '999999999999999',
        '9'.repeat(40),
        'NaN',
        'Infinity',
        '',
        '%31',
        ' 1',
        'constructor',
        '__proto__',
        '１',
      ]);
}

/** The value of `address=`: lists of every size (101+ is over the batch limit), duplicates, empty items. */
export function addressList(r: Prng): string {
  const item = () => (r.chance(0.6) ? r.pick([VITALIK, 'vitalik.eth', VITALIK.toLowerCase()]) : addressSegment(r));
  switch (r.int(8)) {
    case 0:
      return '';
    case 1:
      return r.pick([',', ',,,', `${VITALIK},,vitalik.eth`, `,${VITALIK}`, `${VITALIK},`, ' , ']);
    case 2:
      return Array.from({ length: r.pick([99, 100, 101, 102, 150]) }, () => `0x${r.string(40, HEX)}`).join(',');
    case 3:
      return Array(r.pick([2, 100, 101, 300]))
        .fill(r.pick([VITALIK, 'vitalik.eth']))
        .join(',');
    case 4:
      // huge: past the query limit (the header section)
      return Array.from({ length: r.pick([400, 1_000]) }, () => VITALIK).join(',');
    default:
      return Array.from({ length: r.between(1, 5) }, item).join(r.pick([',', '%2C', ',%20']));
  }
}

/** A query string (without `?`) for an operation with these query parameters. */
export function queryString(r: Prng, params: readonly string[]): string {
  const parts: string[] = [];
  if (params.includes('address') && r.chance(0.92)) {
    const times = r.chance(0.1) ? 2 : 1;
    for (let i = 0; i < times; i++)
      parts.push(`${r.pick(['address', 'address', 'address', 'address[]', 'address[0]', 'Address'])}=${addressList(r)}`);
  }
  if (r.chance(params.includes('include_factors') ? 0.5 : 0.1)) {
    parts.push(
      `include_factors=${r.pick(['true', 'false', '1', '0', '', 'TRUE', 'yes', 'null', '%00', 'true&include_factors=false', '[]', '{}'])}`,
    );
  }
  if (r.chance(0.15)) {
    parts.push(
      r.pick([
        '__proto__[polluted]=1',
        'constructor[prototype][polluted]=1',
        '__proto__=x',
        'toString=1',
        'hasOwnProperty=1',
        'a[b][c][d]=1',
        '=',
        '&&',
        'x=%',
        'x=%E0%A4%A',
        `junk=${'j'.repeat(r.pick([10, 5_000]))}`,
      ]),
    );
  }
  return parts.join('&');
}

const NUMBERS = [
  '50000',
  '0',
  '-0',
  '-1',
  '1e308',
  '-1e308',
  '1e309',
  '1e307',
  '9007199254740991',
  '9007199254740993',
  '1e-320',
  '0.1',
  '1.7976931348623157e308',
  '123456789012345678901234567890',
  '1E2',
  '-1e-7',
];
const NOT_NUMBERS = ['"50000"', '"NaN"', '"Infinity"', '"-0"', 'true', 'null', '[]', '{}', '[1]', '{"a":1}', '""', '"1e308"'];

function nested(r: Prng, depth: number): string {
  const [open, close] = r.chance(0.5) ? ['[', ']'] : ['{"a":', '}'];
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}

/** A JSON-ish body for a POST: valid, wrong types, extreme numbers, deep nesting, huge, not JSON at all. */
export function jsonBody(r: Prng, fields: readonly string[]): string {
  const value = () => (r.chance(0.6) ? r.pick(NUMBERS) : r.pick(NOT_NUMBERS));
  switch (r.int(9)) {
    case 0:
      return JSON.stringify({ name: 'my-bank', total_asset_usd: 1200, count_transactions: 4 });
    case 1:
    case 2:
      return `{${fields
        .filter(() => r.chance(0.8))
        .map(
          (f) =>
            `"${f}":${f === 'name' && r.chance(0.6) ? r.pick(['"my-bank"', '""', '"x"', JSON.stringify('n'.repeat(300)), '1', 'null']) : value()}`,
        )
        .join(',')}}`;
    case 3:
      return r.pick([
        '{"__proto__":{"total_asset_usd":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '{"total_asset_usd":1,"total_asset_usd":"x"}',
        `{"name":"a","__proto__":{"name":"b"},"total_asset_usd":1}`,
      ]);
    case 4:
      return `{"total_asset_usd":${nested(r, r.pick([10, 100, 1_000, 5_000]))}}`;
    case 5:
      return nested(r, r.pick([1, 1_000, 20_000]));
    case 6:
      return JSON.stringify({ name: 'x'.repeat(r.pick([1_000, 60_000, 70_000, 300_000])), total_asset_usd: 1 });
    case 7:
      return r.pick([
        '',
        '{',
        '{"a":',
        'null',
        'true',
        '"str"',
        '[]',
        'NaN',
        'undefined',
        '\ufeff{"total_asset_usd":1}',
        '{total_asset_usd: 1}',
        "{'a':1}",
        '\u0000\u0001\u0002',
        '{"a":1}{"b":2}',
      ]);
    default:
      return `{${fields.map((f) => `"${f}":${value()}`).join(',')},"extra":${value()}}`;
  }
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'Application/JSON',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '*/*',
  'application/json, text/plain',
];

export type AuthMode = 'valid' | 'invalid' | 'none';

/** An Authorization header for the mode (undefined: none sent). */
export function authorization(r: Prng, mode: AuthMode, key: string): string | undefined {
  if (mode === 'none') return r.chance(0.85) ? undefined : r.pick(['', ' ', 'Bearer', 'Bearer ']);
  if (mode === 'valid') return `${r.pick(['Bearer', 'Bearer', 'Bearer', 'bearer', 'BEARER'])}${r.pick([' ', ' ', '  '])}${key}`;
  const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return r.pick([
    `Bearer csk_${r.string(40, base62)}`,
    `Bearer csk_${r.string(40, base62)}`,
    `Bearer ${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`,
    `Bearer ${key.slice(0, -1)}`,
    `Bearer ${key} extra`,
    `Bearer ${key},Bearer ${key}`,
    `Basic ${Buffer.from('user:pass').toString('base64')}`,
    `Token ${key}`,
    key,
    `Bearer\t${key}`,
    `Bearer csk_${'\u00e9'.repeat(40)}`,
    `Bearer ${'x'.repeat(r.pick([1_000, 10_000, 70_000]))}`,
    'Bearer null',
    'Bearer undefined',
    `Bearer ${r.pick(PROTOTYPE_NAMES)}`,
  ]);
}
