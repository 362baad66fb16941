import { newId } from '@credit/contracts/api-key';
import { normalizeEmail, toAccountRecord, type AccountRecord } from './account-repository';
import type { Db } from './prisma-client';

/** What following a verification link did. */
export type VerificationOutcome =
  /** `keysBefore`: the active keys the account already held (a claimed account's, made by the operator). */
  | { kind: 'created' | 'claimed'; account: AccountRecord; keysBefore: number }
  /** The token is unknown, used already, or expired. */
  | { kind: 'invalid' }
  /** The email's account has a password already (someone claimed it first): nothing changed. */
  | { kind: 'already_claimed' };

/**
 * Sign-up links (docs/decisions/0006). A link holds no password: the mailbox owner chooses it on
 * the page the link opens, so nobody who merely asked for the mail can set it.
 */
export class EmailVerificationRepository {
  constructor(private readonly db: Db) {}

  /** A pending sign-up: the link's token hash and the email it was mailed to. */
  async create(input: { id: string; email: string; expiresAt: Date }): Promise<void> {
    await this.db.emailVerification.create({ data: { ...input, email: normalizeEmail(input.email) } });
  }

  /** True when the link can still be followed (unused, unexpired); reads only, so it can run before any hashing. */
  async isLive(id: string, now: Date): Promise<boolean> {
    return (await this.db.emailVerification.count({ where: { id, usedAt: null, expiresAt: { gt: now } } })) > 0;
  }

  /**
   * Why a link that is not live does not work, for its page to say what to do next: `used` (its
   * account exists and is verified: sign in), `expired` (ask for another), or `unknown` (made up,
   * or expired and swept). Only the link's holder learns this: the id is the hash of its token.
   */
  async deadLinkReason(id: string, now: Date): Promise<'used' | 'expired' | 'unknown'> {
    const row = await this.db.emailVerification.findUnique({ where: { id }, select: { usedAt: true, expiresAt: true } });
    if (row === null) return 'unknown';
    if (row.usedAt !== null) return 'used';
    return row.expiresAt <= now ? 'expired' : 'unknown';
  }

  /**
   * Follows a link with the password its mailbox owner chose, once: in one transaction the token is
   * used up, and the email's account is created (free plan, verified, with that password) or, when
   * the operator CLI made it and nobody has claimed it, given that password and marked verified.
   * An account that has a password already keeps it.
   */
  async consume(id: string, passwordHash: string, now: Date): Promise<VerificationOutcome> {
    return this.db.$transaction(async (tx) => {
      const used = await tx.emailVerification.updateManyAndReturn({
        where: { id, usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
      });
      const verification = used[0];
      if (verification === undefined) return { kind: 'invalid' };
      const inserted = await tx.account.createManyAndReturn({
        data: [{ id: newId('acc'), email: verification.email, plan: 'free', isVerified: true, passwordHash }],
        skipDuplicates: true,
      });
      if (inserted[0] !== undefined) return { kind: 'created', account: toAccountRecord(inserted[0]), keysBefore: 0 };
      const claimed = await tx.account.updateManyAndReturn({
        where: { email: verification.email, passwordHash: null },
        data: { passwordHash, isVerified: true },
      });
      if (claimed[0] === undefined) return { kind: 'already_claimed' };
      const keysBefore = await tx.apiKey.count({ where: { accountId: claimed[0].id, status: 'active' } });
      return { kind: 'claimed', account: toAccountRecord(claimed[0]), keysBefore };
    });
  }

  /** Removes the links that expired before `now` (used or not); returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const { count } = await this.db.emailVerification.deleteMany({ where: { expiresAt: { lt: now } } });
    return count;
  }
}
