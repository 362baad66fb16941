import { isIP } from 'node:net';
import { z } from 'zod';

/** proxy-addr's (Fastify's) names for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Fastify's `trustProxy`: off, a hop count, or the addresses of the proxies in front of the gateway.
 * `true` (trust every hop) is not offered: the leftmost `X-Forwarded-For` entry is whatever the
 * client wrote, so per-client limits keyed on it could be dodged at will.
 */
export type TrustProxy = false | number | string[];

/** One entry of the list: an IP address, a CIDR block (`10.0.0.0/8`, `fd00::/8`) or a named range. */
function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry) || isIP(entry) !== 0) return true;
  const slash = entry.indexOf('/');
  if (slash === -1) return false;
  const version = isIP(entry.slice(0, slash));
  const bits = entry.slice(slash + 1);
  return version !== 0 && /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * `TRUST_PROXY`: unset, blank, `0`, `off` or `false` trusts no proxy (`request.ip` is the socket's
 * peer and `X-Forwarded-*` is ignored); a whole number N trusts the N nearest hops (behind one
 * Ingress: 1); otherwise a comma-separated list of proxy addresses, CIDR blocks or proxy-addr's
 * named ranges (`loopback`, `linklocal`, `uniquelocal`), whose hops are skipped.
 */
export const trustProxyEnv = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim() : value),
  z
    .string()
    .optional()
    .transform((value, ctx): TrustProxy => {
      if (value === undefined || value === '' || /^(0|off|false)$/i.test(value)) return false;
      if (/^\d+$/.test(value)) return Number(value);
      const entries = value.split(',').map((entry) => entry.trim());
      const bad = entries.filter((entry) => !isProxyAddress(entry));
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a hop count or comma-separated proxy IPs / CIDR blocks (not ${bad.map((b) => JSON.stringify(b)).join(', ')})`,
        });
        return z.NEVER;
      }
      return entries;
    }),
);
