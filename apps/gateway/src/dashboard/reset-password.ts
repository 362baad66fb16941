import { Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { ResetPasswordBody, ResetPasswordReply } from '@credit/contracts/schemas/dashboard';
import { PasswordResetRepository } from '@credit/db/password-reset-repository';
import { EmailLinkLimiter } from './link-limiter';
import { hashPassword } from './password-hash';
import { SignInLimiter } from './signin-limiter';

/**
 * The page a reset link opens, sent (docs/decisions/0006): the new password is set, once, and every
 * dashboard session of the account ends. The link is rate limited (per address and per link) and
 * looked up before the password is hashed, so made-up links cost no scrypt. `keys_before`: the
 * account's active keys, all made before the reset, for its owner to review.
 */
@Injectable()
export class ResetPassword {
  constructor(
    private readonly resets: PasswordResetRepository,
    private readonly links: EmailLinkLimiter,
    private readonly signIns: SignInLimiter,
  ) {}

  async execute(body: ResetPasswordBody, ip: string): Promise<ResetPasswordReply> {
    const id = await this.links.admit(ip, body.token, invalidLink);
    if (!(await this.resets.isLive(id, new Date()))) throw invalidLink();
    const done = await this.resets.consume(id, await hashPassword(body.password), new Date());
    if (done === null) throw invalidLink();
    await this.signIns.reset(done.email);
    return { email: done.email, keys_before: done.keysBefore };
  }
}

function invalidLink(): DomainError {
  return new DomainError('invalid_token', 'This password reset link is invalid, used or expired: ask for a new one');
}
