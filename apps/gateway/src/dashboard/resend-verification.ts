import { Injectable } from '@nestjs/common';
import type { ResendVerificationBody, ResendVerificationReply } from '@credit/contracts/schemas/dashboard';
import { MailQueue } from './mail-queue';
import { SignInLimiter } from './signin-limiter';

const REPLY: ResendVerificationReply = {
  status: 'verification_sent',
  message: 'If this email still needs verifying, we sent it a new link. Check that inbox, and its spam folder.',
};

/**
 * "Resend the verification email" (issue 39), from the sign-in page or a link that expired. It is
 * a sign-up's mail asked again, with a sign-up's limits: the address is counted (the sign-in
 * limiter) and the mail queue sends at most one sign-up mail per email per
 * ACCOUNT_MAIL_INTERVAL_SECONDS, the same deduplication as sign-up's. No account is read, so the
 * answer is the same for every email; what the mail says is decided after it (SendAccountMail: a
 * new link for an email without a password, a reset link that verifies an unverified account with
 * one, a note that it has an account otherwise).
 */
@Injectable()
export class ResendVerification {
  constructor(
    private readonly limiter: SignInLimiter,
    private readonly mails: MailQueue,
  ) {}

  async execute(body: ResendVerificationBody, ip: string): Promise<ResendVerificationReply> {
    await this.limiter.admit(ip);
    await this.mails.add({ kind: 'sign-up', email: body.email });
    return REPLY;
  }
}
