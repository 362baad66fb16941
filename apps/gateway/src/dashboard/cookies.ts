import type { FastifyReply, FastifyRequest } from 'fastify';

/** The dashboard's cookies live under its path only: the API never reads or sets one. */
export const COOKIE_PATH = '/dashboard';
export const SESSION_COOKIE = 'credit_session';
export const CSRF_COOKIE = 'credit_csrf';

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  httpOnly: boolean;
  sameSite: 'Strict' | 'Lax';
  secure: boolean;
}

/** A cookie of the request by name (the first one, as browsers send the most specific first). */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Adds a Set-Cookie header (Fastify appends each one: several may go out on one reply). */
export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  const attributes = [
    `${name}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${options.maxAge}`,
    `SameSite=${options.sameSite}`,
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ];
  void reply.header('set-cookie', attributes.join('; '));
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Whether the dashboard's cookies carry `Secure` (DASHBOARD_SECURE_COOKIES): `on` / `off` say so;
 * `auto` sets it except on plain http on this machine (localhost, 127.0.0.1, ::1), where a browser
 * would drop a Secure cookie from an http page. PUBLIC_URL decides when set; otherwise the
 * request's own protocol and host (a caller who lies about them only weakens its own cookie).
 */
export function secureCookies(setting: 'auto' | 'on' | 'off', publicUrl: string | undefined, request: FastifyRequest): boolean {
  if (setting !== 'auto') return setting === 'on';
  const url = publicUrl === undefined ? undefined : new URL(publicUrl);
  const protocol = url?.protocol ?? `${request.protocol}:`;
  const hostname = url?.hostname ?? request.hostname;
  return !(protocol === 'http:' && LOCAL_HOSTS.has(hostname.toLowerCase()));
}
