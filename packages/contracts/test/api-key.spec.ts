import { createHash } from 'node:crypto';
import {
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  apiKeyStart,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  newId,
  randomBase62,
} from '../src/api-key';

/** API key format (ARCHITECTURE 7): `csk_` + 40 base62 characters; SHA-256 stored; first ten kept. */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('generateApiKey', () => {
  const keys = Array.from({ length: 1000 }, () => generateApiKey());

  it('matches the documented format', () => {
    expect(API_KEY_PREFIX).toBe('csk');
    expect(API_KEY_RANDOM_LENGTH).toBe(40);
    for (const key of keys) {
      expect(key).toMatch(/^csk_[0-9A-Za-z]{40}$/);
      expect(key).toMatch(API_KEY_PATTERN);
      expect(isWellFormedApiKey(key)).toBe(true);
      expect(key).toHaveLength(44);
    }
  });

  it('1000 keys are all distinct', () => {
    expect(new Set(keys).size).toBe(1000);
  });

  it('uses the whole base62 alphabet', () => {
    const seen = new Set(keys.join('').replace(/csk_/g, ''));
    expect([...seen].sort().join('')).toBe([...BASE62].sort().join(''));
  });
});

describe('isWellFormedApiKey', () => {
  const good = `csk_${'a1B2'.repeat(10)}`;

  it('accepts the format', () => {
    expect(isWellFormedApiKey(good)).toBe(true);
  });

  it.each([
    ['too short', `csk_${'a'.repeat(39)}`],
    ['too long', `csk_${'a'.repeat(41)}`],
    ['wrong prefix', `csx_${'a'.repeat(40)}`],
    ['upper-case prefix', `CSK_${'a'.repeat(40)}`],
    ['dash separator', `csk-${'a'.repeat(40)}`],
    ['non-base62 character', `csk_${'a'.repeat(39)}_`],
    ['base64 character', `csk_${'a'.repeat(39)}+`],
    ['trailing newline', `${good}\n`],
    ['leading space', ` ${good}`],
    ['Bearer prefix left on', `Bearer ${good}`],
    ['empty', ''],
  ])('rejects %s', (_label, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });
});

describe('hashApiKey', () => {
  it('is the SHA-256 hex digest of the whole key', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key, 'utf8').digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches the published SHA-256 test vector', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('differs between keys', () => {
    expect(hashApiKey(generateApiKey())).not.toBe(hashApiKey(generateApiKey()));
  });
});

describe('apiKeyStart', () => {
  it('keeps the first ten characters: the prefix and six random ones', () => {
    const key = generateApiKey();
    const start = apiKeyStart(key);
    expect(start).toHaveLength(10);
    expect(start).toBe(key.slice(0, 10));
    expect(start).toMatch(/^csk_[0-9A-Za-z]{6}$/);
  });
});

describe('randomBase62', () => {
  it.each([0, 1, 7, 40, 333])('gives exactly %i characters of the alphabet', (length) => {
    const value = randomBase62(length);
    expect(value).toHaveLength(length);
    for (const ch of value) expect(BASE62).toContain(ch);
  });

  it('is unbiased: the first eight characters are not favoured (no bare byte % 62)', () => {
    // A plain `byte % 62` would give '0'..'7' 5/256 each and the others 4/256: a 25% excess.
    const counts = new Map<string, number>();
    for (const ch of randomBase62(200_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const mean = (chars: string[]) => chars.reduce((s, c) => s + (counts.get(c) ?? 0), 0) / chars.length;
    const ratio = mean([...BASE62.slice(0, 8)]) / mean([...BASE62.slice(8)]);
    expect(ratio).toBeGreaterThan(0.95);
    expect(ratio).toBeLessThan(1.05);
  });
});

describe('newId', () => {
  it('prefixes the kind and is unique', () => {
    const ids = Array.from({ length: 200 }, () => newId('acc'));
    for (const id of ids) expect(id).toMatch(/^acc_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(200);
    expect(newId('key')).toMatch(/^key_[0-9A-Za-z]{20}$/);
  });
});
