import type { Db } from './prisma-client';

export class PasswordResetRepository {
  constructor(private readonly db: Db) {}

  /** A reset link's token hash for the account, valid until `expiresAt`. */
  async create(input: { id: string; accountId: string; expiresAt: Date }): Promise<void> {
    await this.db.passwordReset.create({ data: input });
  }

  /**
   * Follows a reset link, once: in one transaction the token is used up (with every other reset of
   * the account still open), the account gets the new password, and every dashboard session of
   * the account ends. The account's email, or null when the token is unknown, used or expired.
   */
  async consume(id: string, passwordHash: string, now: Date): Promise<{ email: string } | null> {
    return this.db.$transaction(async (tx) => {
      const used = await tx.passwordReset.updateManyAndReturn({
        where: { id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      const reset = used[0];
      if (reset === undefined) return null;
      await tx.passwordReset.updateMany({ where: { accountId: reset.accountId, usedAt: null }, data: { usedAt: now } });
      const account = await tx.account.update({ where: { id: reset.accountId }, data: { passwordHash } });
      await tx.dashboardSession.deleteMany({ where: { accountId: reset.accountId } });
      return { email: account.email };
    });
  }

  /** Removes the links that expired before `now` (used or not); returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { count } = await this.db.passwordReset.deleteMany({ where: { expiresAt: { lt: now } } });
    return count;
  }
}
