import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@credit/contracts/errors';
import type { SessionReply, SignInBody } from '@credit/contracts/schemas/dashboard';
import { AccountRepository, type AccountRecord } from '@credit/db/account-repository';
import { DashboardSessions } from './dashboard-sessions';
import { verifyAgainstNothing, verifyPassword } from './password-hash';
import { SignInLimiter } from './signin-limiter';

/** Sign-in with email and password: rate limited per email and per address, then a new session. */
@Injectable()
export class SignIn {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly limiter: SignInLimiter,
    private readonly sessions: DashboardSessions,
  ) {}

  async execute(reply: FastifyReply, body: SignInBody, ip: string): Promise<SessionReply> {
    await this.limiter.admit(ip, body.email);
    const found = await this.accounts.findCredentials(body.email);
    const matches =
      found?.passwordHash == null ? await verifyAgainstNothing(body.password) : await verifyPassword(body.password, found.passwordHash);
    if (!matches || found === null) {
      await this.limiter.recordFailure(body.email);
      throw new DomainError('invalid_credentials', 'Wrong email or password');
    }
    if (!found.account.isActive) throw new DomainError('forbidden', 'This account is disabled; contact support');
    await this.limiter.reset(body.email);
    const csrfToken = await this.sessions.start(reply, found.account);
    return { account: dashboardAccount(found.account), csrf_token: csrfToken };
  }
}

export function dashboardAccount(account: AccountRecord): SessionReply['account'] {
  return { id: account.id, email: account.email, plan: account.plan, is_verified: account.isVerified };
}
