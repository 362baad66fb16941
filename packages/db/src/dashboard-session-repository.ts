import { toAccountRecord, type AccountRecord } from './account-repository';
import type { Db } from './prisma-client';

/** A dashboard session as the gateway sees it (the cookie's token is never stored, only its hash). */
export interface DashboardSessionRecord {
  /** SHA-256 (hex) of the cookie's token. */
  id: string;
  csrfToken: string;
  expiresAt: Date;
  account: AccountRecord;
}

export class DashboardSessionRepository {
  constructor(private readonly db: Db) {}

  async create(input: { id: string; accountId: string; csrfToken: string; expiresAt: Date }): Promise<void> {
    await this.db.dashboardSession.create({ data: input });
  }

  /** The session with this token hash and its account, if it has not expired at `now`. */
  async findLive(id: string, now: Date): Promise<DashboardSessionRecord | null> {
    const row = await this.db.dashboardSession.findUnique({ where: { id }, include: { account: true } });
    if (row === null || row.expiresAt <= now) return null;
    return { id: row.id, csrfToken: row.csrfToken, expiresAt: row.expiresAt, account: toAccountRecord(row.account) };
  }

  /** Ends the session (sign-out): its cookie is worthless from then on, on every gateway. */
  async delete(id: string): Promise<void> {
    await this.db.dashboardSession.deleteMany({ where: { id } });
  }

  /** Removes the sessions that expired before `now`; returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { count } = await this.db.dashboardSession.deleteMany({ where: { expiresAt: { lt: now } } });
    return count;
  }
}
