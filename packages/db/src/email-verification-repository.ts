import { newId } from '@credit/contracts/api-key';
import { normalizeEmail, toAccountRecord, type AccountRecord } from './account-repository';
import type { Db } from './prisma-client';

/** What following a verification link did. */
export type VerificationOutcome =
  | { kind: 'created'; account: AccountRecord }
  | { kind: 'claimed'; account: AccountRecord }
  /** The token is unknown, used already, or expired. */
  | { kind: 'invalid' }
  /** The email's account has a password already (someone claimed it first): nothing changed. */
  | { kind: 'already_claimed' };

export class EmailVerificationRepository {
  constructor(private readonly db: Db) {}

  /** A pending sign-up: the link's token hash, the email and the password chosen (hashed). */
  async create(input: { id: string; email: string; passwordHash: string; expiresAt: Date }): Promise<void> {
    await this.db.emailVerification.create({ data: { ...input, email: normalizeEmail(input.email) } });
  }

  /**
   * Follows a link, once: in one transaction the token is used up, and the email's account is
   * created (free plan, verified, with the password chosen) or, when the operator CLI made it and
   * nobody has claimed it, given that password and marked verified. An account that has a
   * password already keeps it.
   */
  async consume(id: string, now: Date): Promise<VerificationOutcome> {
    return this.db.$transaction(async (tx) => {
      const used = await tx.emailVerification.updateManyAndReturn({
        where: { id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      const verification = used[0];
      if (verification === undefined) return { kind: 'invalid' };
      const inserted = await tx.account.createManyAndReturn({
        data: [{ id: newId('acc'), email: verification.email, plan: 'free', isVerified: true, passwordHash: verification.passwordHash }],
        skipDuplicates: true,
      });
      if (inserted[0] !== undefined) return { kind: 'created', account: toAccountRecord(inserted[0]) };
      const claimed = await tx.account.updateManyAndReturn({
        where: { email: verification.email, passwordHash: null },
        data: { passwordHash: verification.passwordHash, isVerified: true },
      });
      if (claimed[0] !== undefined) return { kind: 'claimed', account: toAccountRecord(claimed[0]) };
      return { kind: 'already_claimed' };
    });
  }

  /** Removes the links that expired before `now` (used or not); returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { count } = await this.db.emailVerification.deleteMany({ where: { expiresAt: { lt: now } } });
    return count;
  }
}
