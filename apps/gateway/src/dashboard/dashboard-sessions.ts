import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import type { AccountRecord } from '@credit/db/account-repository';
import { DashboardSessionRepository, type DashboardSessionRecord } from '@credit/db/dashboard-session-repository';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { CSRF_COOKIE, readCookie, secureCookies, SESSION_COOKIE, setCookie, type CookieOptions } from './cookies';
import { isWellFormedToken, newToken, sameToken, tokenHash } from './dashboard-tokens';

export const CSRF_HEADER = 'x-csrf-token';

/**
 * Dashboard sessions (docs/decisions/0006): an HttpOnly, SameSite=Lax cookie holding a random
 * token whose SHA-256 is the session's row in Postgres, so every gateway replica knows it and a
 * sign-out ends it everywhere. CSRF: every state change sends `X-CSRF-Token`; signed in, it must
 * be the session's own token (kept in the row); before sign-in, the `credit_csrf` cookie's value
 * (double submit). A request whose `Origin` is another host is refused outright.
 */
@Injectable()
export class DashboardSessions {
  constructor(
    private readonly sessions: DashboardSessionRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The signed-in session, or 401. A disabled account's sessions are refused like its keys. */
  async require(request: FastifyRequest): Promise<DashboardSessionRecord> {
    const token = readCookie(request, SESSION_COOKIE);
    if (!isWellFormedToken(token)) throw unauthenticated();
    const session = await this.sessions.findLive(tokenHash(token), new Date());
    if (session === null || !session.account.isActive) throw unauthenticated();
    return session;
  }

  /** Checks a state change's CSRF token: the session's when signed in, the cookie's before. */
  checkCsrf(request: FastifyRequest, session: DashboardSessionRecord | null): void {
    checkOrigin(request);
    const sent = request.headers[CSRF_HEADER];
    const expected = session === null ? readCookie(request, CSRF_COOKIE) : session.csrfToken;
    if (typeof sent !== 'string' || !isWellFormedToken(expected) || !sameToken(sent, expected)) {
      throw new DomainError('csrf_rejected', `Missing or invalid CSRF token: send the ${CSRF_HEADER} header the dashboard gave you`);
    }
  }

  /** The pre-sign-in CSRF token: the cookie's, or a new one set as the cookie. */
  anonymousCsrf(request: FastifyRequest, reply: FastifyReply): string {
    const current = readCookie(request, CSRF_COOKIE);
    if (isWellFormedToken(current)) return current;
    const token = newToken();
    setCookie(reply, CSRF_COOKIE, token, this.cookie(reply, false, this.config.DASHBOARD_SESSION_TTL_HOURS * 3600));
    return token;
  }

  /** Signs the account in: a new session row and cookie, and a new CSRF token for it. */
  async start(reply: FastifyReply, account: AccountRecord): Promise<string> {
    const token = newToken();
    const csrfToken = newToken();
    const ttlSeconds = this.config.DASHBOARD_SESSION_TTL_HOURS * 3600;
    await this.sessions.create({
      id: tokenHash(token),
      accountId: account.id,
      csrfToken,
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    });
    setCookie(reply, SESSION_COOKIE, token, this.cookie(reply, true, ttlSeconds));
    setCookie(reply, CSRF_COOKIE, csrfToken, this.cookie(reply, false, ttlSeconds));
    return csrfToken;
  }

  /** Signs out: the session's row is deleted (its cookie is worthless on every replica) and the cookies cleared. */
  async end(reply: FastifyReply, session: DashboardSessionRecord): Promise<void> {
    await this.sessions.delete(session.id);
    setCookie(reply, SESSION_COOKIE, '', this.cookie(reply, true, 0));
    setCookie(reply, CSRF_COOKIE, '', this.cookie(reply, false, 0));
  }

  private cookie(reply: FastifyReply, httpOnly: boolean, maxAge: number): CookieOptions {
    const secure = secureCookies(this.config.DASHBOARD_SECURE_COOKIES, this.config.PUBLIC_URL, reply.request);
    // The CSRF cookie is read by the page's script, so not HttpOnly; Strict, since only the page sends it back.
    return { httpOnly, maxAge, sameSite: httpOnly ? 'Lax' : 'Strict', secure };
  }
}

function unauthenticated(): DomainError {
  return new DomainError('unauthenticated', 'Not signed in: sign in to the dashboard (an API key does not open it)');
}

/** A browser names the page's origin on every POST: one of another host is a cross-site request. */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host === undefined || host !== request.headers.host) {
    throw new DomainError('csrf_rejected', 'Cross-origin request refused');
  }
}
