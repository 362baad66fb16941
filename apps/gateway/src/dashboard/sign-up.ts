import { Inject, Injectable } from '@nestjs/common';
import type { SignUpBody, SignUpReply } from '@credit/contracts/schemas/dashboard';
import { AccountRepository } from '@credit/db/account-repository';
import { EmailVerificationRepository } from '@credit/db/email-verification-repository';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { newToken, tokenHash } from './dashboard-tokens';
import { MAILER, type Mailer } from './mailer';
import { PublicUrl } from './public-url';
import { hashPassword } from './password-hash';
import { SignInLimiter } from './signin-limiter';

const REPLY: SignUpReply = {
  status: 'verification_sent',
  message: 'Check your email: follow the link we sent to finish signing up, then sign in.',
};

/**
 * Sign-up (docs/decisions/0006): nothing is created until the email's owner follows the link we
 * mail, which creates the account, or claims one the operator CLI made, with the password chosen
 * here. An email that already has a password gets a note instead of a link. The reply is the same
 * in every case, so sign-up does not tell who has an account.
 */
@Injectable()
export class SignUp {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly verifications: EmailVerificationRepository,
    private readonly publicUrl: PublicUrl,
    private readonly limiter: SignInLimiter,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(body: SignUpBody, ip: string): Promise<SignUpReply> {
    await this.limiter.admit(ip);
    const passwordHash = await hashPassword(body.password);
    const existing = await this.accounts.findCredentials(body.email);
    const signIn = `${this.publicUrl.base}/dashboard/signin`;
    if (existing?.passwordHash != null) {
      await this.mailer.send({
        to: body.email,
        subject: 'Your credit dashboard account',
        text: `Someone (perhaps you) tried to sign up with this email, which already has an account.\n\nSign in: ${signIn}\n\nIf it was not you, nothing has changed.`,
      });
      return REPLY;
    }
    const token = newToken();
    const hours = this.config.EMAIL_VERIFICATION_TTL_HOURS;
    await this.verifications.create({
      id: tokenHash(token),
      email: body.email,
      passwordHash,
      expiresAt: new Date(Date.now() + hours * 3_600_000),
    });
    const link = `${this.publicUrl.base}/dashboard/verify?token=${token}`;
    await this.mailer.send({
      to: body.email,
      subject: 'Verify your email for the credit dashboard',
      text: `Follow this link within ${hours} hours to verify your email and finish signing up:\n\n${link}\n\nThen sign in: ${signIn}\n\nIf you did not sign up, ignore this email.`,
    });
    return REPLY;
  }
}
