import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import type { DashboardSessionRecord } from '@credit/db/dashboard-session-repository';
import { classifyDbError } from '@credit/db/db-errors';
import type { DashboardSessions } from './dashboard-sessions';

/** What the dashboard's controllers share: how a signed-in request is admitted, and how it fails. */

/**
 * A signed-in request: the session (401 without one), the session's CSRF token for a change, then
 * the use case. Never stored by a browser; Postgres away is 503.
 */
export function signedIn<T>(
  sessions: DashboardSessions,
  req: FastifyRequest,
  reply: FastifyReply,
  kind: 'read' | 'change',
  run: (session: DashboardSessionRecord) => T | Promise<T>,
): Promise<T> {
  noStore(reply);
  return unavailableWhenDbIs(async () => {
    const session = await sessions.require(req);
    if (kind === 'change') sessions.checkCsrf(req, session);
    return run(session);
  });
}

/** Nothing the dashboard answers may be stored by a browser or a proxy. */
export function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store');
}

/** Postgres unreachable, missing or timing out is 503, like the API's key lookups; other failures stay 500s. */
export async function unavailableWhenDbIs<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError) && classifyDbError(error) !== null) {
      throw new DomainError('service_unavailable', 'The dashboard is unavailable; try again shortly');
    }
    throw error;
  }
}
