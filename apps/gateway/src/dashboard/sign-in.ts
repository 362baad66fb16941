import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import type { SessionReply, SignInBody } from '@credit/contracts/schemas/dashboard';
import { AccountRepository, type AccountRecord } from '@credit/db/account-repository';
import { DashboardSessions } from './dashboard-sessions';
import { hashPassword, needsRehash, verifyAgainstNothing, verifyPassword } from './password-hash';
import { SignInLimiter } from './signin-limiter';

/**
 * Sign-in with email and password: a password check is reserved for the email (and the attempt
 * counted for the address) before any hashing, then a new session. An account whose email is not
 * verified is told so (403, `reason: email_not_verified`) only after its password was shown right. A hash made with older scrypt
 * parameters is rewritten with today's once the password has been shown right.
 */
@Injectable()
export class SignIn {
  private readonly logger = new Logger('dashboard');

  constructor(
    private readonly accounts: AccountRepository,
    private readonly limiter: SignInLimiter,
    private readonly sessions: DashboardSessions,
  ) {}

  async execute(reply: FastifyReply, body: SignInBody, ip: string): Promise<SessionReply> {
    await this.limiter.admit(ip, body.email);
    let failed = false;
    try {
      const found = await this.accounts.findCredentials(body.email);
      const stored = found?.passwordHash ?? null;
      const matches = stored === null ? await verifyAgainstNothing(body.password) : await verifyPassword(body.password, stored);
      if (!matches || found === null || stored === null) {
        failed = true;
        throw new DomainError('invalid_credentials', 'Wrong email or password');
      }
      if (!found.account.isActive) throw new DomainError('forbidden', 'This account is disabled; contact support');
      // Said only now, once the password was shown right: a guesser learns nothing of the account.
      if (!found.account.isVerified) {
        throw new DomainError('forbidden', 'This email is not verified yet: follow the link we emailed you, or ask for a new one', {
          reason: 'email_not_verified',
        });
      }
      if (needsRehash(stored)) await this.upgrade(found.account.id, stored, body.password);
      const csrfToken = await this.sessions.start(reply, found.account);
      return { account: dashboardAccount(found.account), csrf_token: csrfToken };
    } finally {
      // The reserved check stays counted only when the password was wrong. Redis failing here
      // (logged by the limiter) leaves it counted: the answer stands.
      if (!failed) await this.limiter.release(body.email).catch(() => undefined);
    }
  }

  /** A failed rewrite costs nothing but the upgrade: the old hash still verifies, the next sign-in tries again. */
  private async upgrade(accountId: string, stored: string, password: string): Promise<void> {
    try {
      await this.accounts.upgradePasswordHash(accountId, stored, await hashPassword(password));
    } catch (error) {
      this.logger.warn(`password hash of ${accountId} not upgraded: ${(error as Error).message}`);
    }
  }
}

export function dashboardAccount(account: AccountRecord): SessionReply['account'] {
  return { id: account.id, email: account.email, plan: account.plan, is_verified: account.isVerified };
}
