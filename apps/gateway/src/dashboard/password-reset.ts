import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { ForgotPasswordReply, ResetPasswordBody, ResetPasswordReply } from '@credit/contracts/schemas/dashboard';
import { AccountRepository } from '@credit/db/account-repository';
import { PasswordResetRepository } from '@credit/db/password-reset-repository';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { isWellFormedToken, newToken, tokenHash } from './dashboard-tokens';
import { MAILER, type Mailer } from './mailer';
import { PublicUrl } from './public-url';
import { hashPassword } from './password-hash';
import { SignInLimiter } from './signin-limiter';

const REPLY: ForgotPasswordReply = {
  status: 'reset_sent',
  message: 'If an account has this email, we sent it a link to choose a new password.',
};

/**
 * A forgotten password (docs/decisions/0006): the account's owner is mailed a link (1 hour, once)
 * to choose a new one, which ends every dashboard session of the account. The reply is the same
 * whether the email has an account or not; an account the CLI made and nobody claimed is told to
 * sign up instead (which claims it).
 */
@Injectable()
export class PasswordReset {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly resets: PasswordResetRepository,
    private readonly limiter: SignInLimiter,
    private readonly publicUrl: PublicUrl,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async request(email: string, ip: string): Promise<ForgotPasswordReply> {
    await this.limiter.admit(ip);
    const found = await this.accounts.findCredentials(email);
    if (found === null) return REPLY;
    const base = this.publicUrl.base;
    if (found.passwordHash === null) {
      await this.mailer.send({
        to: found.account.email,
        subject: 'Your credit dashboard account',
        text:
          `Someone (perhaps you) asked to reset the password of this email's account, which has no password yet.\n\n` +
          `Sign up with this email to choose one: ${base}/dashboard/signup\n\nIf it was not you, nothing has changed.`,
      });
      return REPLY;
    }
    const token = newToken();
    const minutes = this.config.PASSWORD_RESET_TTL_MINUTES;
    await this.resets.create({ id: tokenHash(token), accountId: found.account.id, expiresAt: new Date(Date.now() + minutes * 60_000) });
    await this.mailer.send({
      to: found.account.email,
      subject: 'Reset your credit dashboard password',
      text:
        `Follow this link within ${minutes} minutes to choose a new password:\n\n${base}/dashboard/reset?token=${token}\n\n` +
        'Every signed-in session of the account ends when you do. If you did not ask for this, ignore this email.',
    });
    return REPLY;
  }

  async reset(body: ResetPasswordBody): Promise<ResetPasswordReply> {
    if (!isWellFormedToken(body.token)) throw invalidLink();
    const passwordHash = await hashPassword(body.password);
    const done = await this.resets.consume(tokenHash(body.token), passwordHash, new Date());
    if (done === null) throw invalidLink();
    await this.limiter.reset(done.email);
    return { email: done.email };
  }
}

function invalidLink(): DomainError {
  return new DomainError('invalid_token', 'This password reset link is invalid, used or expired: ask for a new one');
}
