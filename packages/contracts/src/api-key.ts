import { hash, randomBytes } from 'node:crypto';

/**
 * API keys look like `csk_<40 base62 characters>`. Only the SHA-256 of the whole key is stored;
 * the first characters (`start`) are kept to tell keys apart in a list.
 */
export const API_KEY_PREFIX = 'csk';
export const API_KEY_RANDOM_LENGTH = 40;
export const API_KEY_PATTERN = /^csk_[0-9A-Za-z]{40}$/;
const START_LENGTH = API_KEY_PREFIX.length + 1 + 6;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Base62 random string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(): string {
  return `${API_KEY_PREFIX}_${randomBase62(API_KEY_RANDOM_LENGTH)}`;
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** On every authenticated request: the one-shot `hash` (Node ≥ 20.12), a third of a `createHash` chain's cost. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function apiKeyStart(key: string): string {
  return key.slice(0, START_LENGTH);
}

/** Ids are prefixed so that a log line tells what it names: `acc_…`, `key_…`. */
export function newId(kind: 'acc' | 'key'): string {
  return `${kind}_${randomBase62(20)}`;
}
