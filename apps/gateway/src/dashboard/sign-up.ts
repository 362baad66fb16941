import { Injectable } from '@nestjs/common';
import type { SignUpBody, SignUpReply } from '@credit/contracts/schemas/dashboard';
import { MailQueue } from './mail-queue';
import { SignInLimiter } from './signin-limiter';

const REPLY: SignUpReply = {
  status: 'verification_sent',
  message: 'Check your email: follow the link we sent and choose your password on the page it opens.',
};

/**
 * Sign-up (docs/decisions/0006) names an email and nothing else: a mail is queued to it, and the
 * page its link opens is where the mailbox's owner chooses the password (VerifyEmail), creating
 * the account or claiming the one the operator CLI made. Whoever asks for the mail never sets a
 * password. The request reads no account, so its answer and its work are the same for every email;
 * what the mail says is decided after the answer (SendAccountMail).
 */
@Injectable()
export class SignUp {
  constructor(
    private readonly limiter: SignInLimiter,
    private readonly mails: MailQueue,
  ) {}

  async execute(body: SignUpBody, ip: string): Promise<SignUpReply> {
    await this.limiter.admit(ip);
    await this.mails.add({ kind: 'sign-up', email: body.email });
    return REPLY;
  }
}
