import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret prefix: the rest is the key, in base64. */
const SECRET_PREFIX = 'whsec_';
/** 24 random bytes: the reference libraries' default key length (192 bits). */
const SECRET_BYTES = 24;

/** A new signing secret, `whsec_<base64 of 24 random bytes>`. */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a `whsec_…` secret: the base64-decoded part after the prefix. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new RangeError('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, the Standard Webhooks signature. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers a delivery carries; the timestamp is the attempt's, so a retry is signed anew. */
export function signedHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, id, timestamp, body),
  };
}
