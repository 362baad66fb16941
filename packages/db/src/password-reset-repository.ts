import type { Db } from './prisma-client';

export class PasswordResetRepository {
  constructor(private readonly db: Db) {}

  /** A reset link's token hash for the account, valid until `expiresAt`. */
  async create(input: { id: string; accountId: string; expiresAt: Date }): Promise<void> {
    await this.db.passwordReset.create({ data: input });
  }

  /** True when the link can still be followed (unused, unexpired); reads only, so it can run before any hashing. */
  async isLive(id: string, now: Date): Promise<boolean> {
    return (await this.db.passwordReset.count({ where: { id, usedAt: null, expiresAt: { gt: now } } })) > 0;
  }

  /**
   * Follows a reset link, once: in one transaction the token is used up (with every other reset of
   * the account still open), the account gets the new password, and every dashboard session of
   * the account ends. The account's email and how many active keys it holds (all made before this
   * reset, for its owner to review), or null when the token is unknown, used or expired.
   */
  async consume(id: string, passwordHash: string, now: Date): Promise<{ email: string; keysBefore: number } | null> {
    return this.db.$transaction(async (tx) => {
      const used = await tx.passwordReset.updateManyAndReturn({
        where: { id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      const reset = used[0];
      if (reset === undefined) return null;
      await tx.passwordReset.updateMany({ where: { accountId: reset.accountId, usedAt: null }, data: { usedAt: now } });
      // The link came to the mailbox: following it proves the email, as a sign-up link does.
      const account = await tx.account.update({ where: { id: reset.accountId }, data: { passwordHash, isVerified: true } });
      await tx.dashboardSession.deleteMany({ where: { accountId: reset.accountId } });
      const keysBefore = await tx.apiKey.count({ where: { accountId: reset.accountId, status: 'active' } });
      return { email: account.email, keysBefore };
    });
  }

  /** Removes the links that expired before `now` (used or not); returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { count } = await this.db.passwordReset.deleteMany({ where: { expiresAt: { lt: now } } });
    return count;
  }
}
