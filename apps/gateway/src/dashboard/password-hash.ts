import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are stored as scrypt hashes (docs/decisions/0006): `scrypt$<N>$<r>$<p>$<salt>$<hash>`,
 * salt and hash in base64. N = 2^17, r = 8, p = 1: OWASP's current minimum (128 MiB and a few
 * hundred milliseconds a hash, on libuv's thread pool, off the event loop). The parameters travel
 * with each hash, so hashes made with older ones (N = 2^15 before) still verify, and sign-in
 * rewrites them with these (`needsRehash`).
 */
export const SCRYPT_PARAMS = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Largest parameters a stored hash may name: a bad row cannot make one check take gigabytes. */
const MAX_PARAMS = { N: 2 ** 20, r: 32, p: 16 };

/**
 * Hashes computed at once; the others wait their turn. Each takes 128 MiB while it runs, and
 * libuv's four threads are shared with DNS and file reads: a burst of sign-ups must neither run
 * the gateway out of memory nor starve those.
 */
const MAX_CONCURRENT = 2;
let running = 0;
const waiting: (() => void)[] = [];

interface Params {
  N: number;
  r: number;
  p: number;
}

/** A turn to hash: at once while fewer than MAX_CONCURRENT run, else handed over by one that ends. */
async function takeTurn(): Promise<void> {
  if (running < MAX_CONCURRENT) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
}

function endTurn(): void {
  const next = waiting.shift();
  if (next === undefined) running -= 1;
  else next();
}

async function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  await takeTurn();
  try {
    // Node refuses scrypt above `maxmem` (32 MiB by default); the work needs 128·N·r·p bytes and a little more.
    const options: ScryptOptions = { ...params, maxmem: 129 * params.N * params.r * params.p + 1024 * 1024 };
    return await new Promise<Buffer>((resolve, reject) =>
      scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  } finally {
    endTurn();
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await derive(password, salt, SCRYPT_PARAMS);
  return ['scrypt', SCRYPT_PARAMS.N, SCRYPT_PARAMS.r, SCRYPT_PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** A stored hash's parts, or null when it is not one this code can read. */
function parse(stored: string): { params: Params; salt: Buffer; hash: Buffer } | null {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return null;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const sane = (['N', 'r', 'p'] as const).every((k) => Number.isSafeInteger(params[k]) && params[k] > 0 && params[k] <= MAX_PARAMS[k]);
  return sane ? { params, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') } : null;
}

/** True when the password matches the stored hash (compared in constant time); false for a hash it cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null) return false;
  const actual = await derive(password, parsed.salt, parsed.params);
  return parsed.hash.length === actual.length && timingSafeEqual(parsed.hash, actual);
}

/** True when a stored hash was made with other parameters than today's (rewrite it once the password is known). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return parsed === null || (['N', 'r', 'p'] as const).some((k) => parsed.params[k] !== SCRYPT_PARAMS[k]);
}

let dummy: Promise<string> | undefined;

/**
 * A sign-in for an email with no password still costs one scrypt, against a hash made once, so
 * the answer's timing does not tell which emails have accounts.
 */
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummy ??= hashPassword('no account has this password');
  await verifyPassword(password, await dummy);
  return false;
}
