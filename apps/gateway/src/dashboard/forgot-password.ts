import { Injectable } from '@nestjs/common';
import type { ForgotPasswordReply } from '@credit/contracts/schemas/dashboard';
import { MailQueue } from './mail-queue';
import { SignInLimiter } from './signin-limiter';

const REPLY: ForgotPasswordReply = {
  status: 'reset_sent',
  message: 'If an account has this email, we sent it a link to choose a new password.',
};

/**
 * A forgotten password (docs/decisions/0006): a mail is queued and the answer given, with no
 * account read, so an unknown email and a known one get the same answer in the same time. After
 * the answer, an account with a password is mailed a reset link (ResetPassword, in reset-password.ts), one without (the
 * operator CLI made it) the link to choose its first password; an unknown email gets nothing.
 */
@Injectable()
export class ForgotPassword {
  constructor(
    private readonly limiter: SignInLimiter,
    private readonly mails: MailQueue,
  ) {}

  async execute(email: string, ip: string): Promise<ForgotPasswordReply> {
    await this.limiter.admit(ip);
    await this.mails.add({ kind: 'forgot-password', email });
    return REPLY;
  }
}
