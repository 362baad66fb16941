import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random token for a cookie, a CSRF header or an email link: 256 bits, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a session or verification token: its SHA-256 (hex), like an API key. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A token as we make them (43 base64url characters). */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** Compares two tokens in constant time. */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
