import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { EmailVerificationRepository } from '@credit/db/email-verification-repository';
import { PasswordResetRepository } from '@credit/db/password-reset-repository';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import type { GatewayConfig } from '../config';
import { newToken, tokenHash } from './dashboard-tokens';
import { Mailer } from './mailer';
import { PublicUrl } from './public-url';

/** A mail the dashboard owes an email (a job of the mail queue): what was asked, never a token. */
export interface AccountMailJob {
  kind: 'sign-up' | 'forgot-password';
  /** As the requester typed it (trimmed); the repositories compare it lowercased. */
  email: string;
}

/**
 * Decides and sends an account mail, after the request that asked for it has been answered (so
 * the answer cannot tell who has an account). An email with no account, or whose account has no
 * password yet (the operator CLI made it), is mailed a link to the page where its owner chooses
 * the password: the link itself changes nothing, and nobody but the mailbox's owner chooses it.
 * An account with a password gets a note on sign-up (a reset link that verifies it when its email
 * is not verified yet) and a reset link on a forgotten password; an unknown email asking for a
 * reset gets nothing. Each try makes a new link (the job never holds
 * one); links of failed tries are simply never followed and expire.
 */
@Injectable()
export class SendAccountMail {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly keys: ApiKeyRepository,
    private readonly verifications: EmailVerificationRepository,
    private readonly resets: PasswordResetRepository,
    private readonly publicUrl: PublicUrl,
    private readonly mailer: Mailer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(job: AccountMailJob): Promise<void> {
    const found = await this.accounts.findCredentials(job.email);
    const to = found?.account.email ?? job.email;
    if (found?.passwordHash != null) {
      if (job.kind === 'forgot-password') return this.resetLink(to, found.account.id, 'reset');
      // An account made with a password before links verified emails: the reset page verifies it.
      return found.account.isVerified ? this.alreadyAnAccount(to) : this.resetLink(to, found.account.id, 'verify');
    }
    if (found === null && job.kind === 'forgot-password') return;
    const keysBefore = found === null ? 0 : (await this.keys.listByAccount(found.account.id)).filter((k) => k.status === 'active').length;
    return this.setupLink(to, found !== null, keysBefore);
  }

  /** The link to the page where the mailbox's owner chooses the password: a new account, or the operator's one claimed. */
  private async setupLink(to: string, claim: boolean, keysBefore: number): Promise<void> {
    const token = newToken();
    const hours = this.config.EMAIL_VERIFICATION_TTL_HOURS;
    await this.verifications.create({ id: tokenHash(token), email: to, expiresAt: new Date(Date.now() + hours * 3_600_000) });
    const link = `${this.publicUrl.base}/dashboard/verify?token=${token}`;
    const keys =
      keysBefore > 0
        ? `\n\nThis account already has ${keysBefore} active API key${keysBefore === 1 ? '' : 's'}, made before you claimed it: ` +
          'review them on the Keys page once you are signed in, and revoke any you do not recognise.'
        : '';
    await this.mailer.send({
      to,
      subject: claim ? 'Claim your credit dashboard account' : 'Finish signing up for the credit dashboard',
      text:
        `${claim ? 'An account for the credit API was made for this email.' : 'Someone (perhaps you) asked to sign up with this email.'} ` +
        `Follow this link within ${hours} hours and choose your password on the page it opens:\n\n${link}${keys}\n\n` +
        'Opening the link changes nothing until you choose a password there. If you did not ask for this, ignore this email.',
    });
  }

  /**
   * A password reset link: asked for (`reset`), or the way to verify an account that has a
   * password but an unverified email (`verify`): choosing the password there proves the mailbox.
   */
  private async resetLink(to: string, accountId: string, purpose: 'reset' | 'verify'): Promise<void> {
    const token = newToken();
    const minutes = this.config.PASSWORD_RESET_TTL_MINUTES;
    await this.resets.create({ id: tokenHash(token), accountId, expiresAt: new Date(Date.now() + minutes * 60_000) });
    const link = `${this.publicUrl.base}/dashboard/reset?token=${token}`;
    await this.mailer.send({
      to,
      subject: purpose === 'reset' ? 'Reset your credit dashboard password' : 'Verify your credit dashboard email',
      text:
        (purpose === 'reset'
          ? `Follow this link within ${minutes} minutes to choose a new password:\n\n${link}\n\n`
          : `Your credit dashboard account's email is not verified yet. Follow this link within ${minutes} minutes and ` +
            `choose your password on the page it opens (your current one is fine): that verifies this email.\n\n${link}\n\n`) +
        'Every signed-in session of the account ends when you do. If you did not ask for this, ignore this email.',
    });
  }

  private alreadyAnAccount(to: string): Promise<void> {
    const base = this.publicUrl.base;
    return this.mailer.send({
      to,
      subject: 'Your credit dashboard account',
      text:
        'Someone (perhaps you) tried to sign up with this email, which already has an account.\n\n' +
        `Sign in: ${base}/dashboard/signin\nForgot your password? ${base}/dashboard/forgot\n\nIf it was not you, nothing has changed.`,
    });
  }
}
