import { redactUrl } from '@credit/config/redact-url';

/**
 * Fields that hold a secret wherever they appear in a logged object (up to three levels deep:
 * `req.headers.authorization`, `body.password`, `config.DATABASE_URL`): docs/SECURITY.md, "Secrets:
 * none in a log line". Credentials in a header, a cookie, a body or a setting are replaced whole.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-payment',
  'payment-signature',
  'password',
  'newPassword',
  'new_password',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'apiKey',
  'api_key',
  'key',
  'secret',
  'privateKey',
  'private_key',
  'NATS_PASSWORD',
  'X402_FACILITATOR_PRIVATE_KEY',
  'X402_FACILITATOR_PRIVATE_KEYS',
  'facilitatorKeys',
  'privateKeys',
];

/** Settings and fields that hold a connection URL: logged with its password and query values hidden (`redactUrl`). */
const URL_KEYS = ['DATABASE_URL', 'REDIS_URL', 'CACHE_REDIS_URL', 'NATS_URL', 'SMTP_URL', 'databaseUrl', 'redisUrl', 'natsUrl'];

/** `key` at the top, one and two levels down, in pino's path syntax (brackets for a name with a dash). */
const atDepths = (key: string) => {
  const step = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`;
  return [step.startsWith('.') ? key : step, `*${step}`, `*.*${step}`];
};
const urlPaths = new Set(URL_KEYS);

/** pino's `redact`: secrets become `[redacted]`, URLs lose their credentials. */
export const REDACT = {
  paths: [...SECRET_KEYS, ...URL_KEYS].flatMap(atDepths),
  censor: (value: unknown, path: string[]): unknown =>
    urlPaths.has(path[path.length - 1]!) && typeof value === 'string' ? redactUrl(value) : '[redacted]',
};

// scheme://user:password@ — what a connection URL quoted in an error message looks like.
const CREDENTIALS_IN_URL = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi;

/** A message's text with any URL password replaced by `***` (a driver's error may quote its URL). */
export function redactMessage(message: string): string {
  return message.includes('://') ? message.replace(CREDENTIALS_IN_URL, '$1***@') : message;
}
