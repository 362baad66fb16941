import { Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { VerifyEmailBody, VerifyEmailReply } from '@credit/contracts/schemas/dashboard';
import { EmailVerificationRepository } from '@credit/db/email-verification-repository';
import { EmailLinkLimiter } from './link-limiter';
import { hashPassword } from './password-hash';

/**
 * The page a sign-up's link opens, sent: the mailbox's owner chooses the password there. Opening
 * the page (a GET, as a mail scanner does) changes nothing; this POST, once, creates the account
 * or claims the operator CLI's, with this password, and sets `is_verified`. The link is rate
 * limited and looked up before the password is hashed. `keys_before`: the claimed account's
 * active keys, for its new owner to review.
 */
@Injectable()
export class VerifyEmail {
  constructor(
    private readonly verifications: EmailVerificationRepository,
    private readonly limiter: EmailLinkLimiter,
  ) {}

  async execute(body: VerifyEmailBody, ip: string): Promise<VerifyEmailReply> {
    const id = await this.limiter.admit(ip, body.token, invalidLink);
    if (!(await this.verifications.isLive(id, new Date()))) throw await this.deadLink(id);
    const outcome = await this.verifications.consume(id, await hashPassword(body.password), new Date());
    switch (outcome.kind) {
      case 'created':
      case 'claimed':
        return { email: outcome.account.email, is_verified: true, keys_before: outcome.keysBefore };
      case 'already_claimed':
        throw new DomainError('invalid_token', 'This email already has an account: sign in, or reset its password', {
          reason: 'account_exists',
        });
      case 'invalid':
        throw invalidLink();
    }
  }

  /**
   * What the page of a link that does not work says next (issue 39): a used one, that its account
   * is verified (sign in); an expired one, to ask for another. Only the link's holder learns this.
   */
  private async deadLink(id: string): Promise<DomainError> {
    switch (await this.verifications.deadLinkReason(id, new Date())) {
      case 'used':
        return new DomainError(
          'invalid_token',
          'This link has already been used: your account is verified. Sign in with your email and password',
          {
            reason: 'link_used',
          },
        );
      case 'expired':
        return new DomainError('invalid_token', 'This link has expired: ask for a new verification email', { reason: 'link_expired' });
      case 'unknown':
        return invalidLink();
    }
  }
}

/** A made-up link, or one expired and swept: the page offers a new verification email. */
function invalidLink(): DomainError {
  return new DomainError('invalid_token', 'This link is invalid, used or expired: ask for a new verification email', {
    reason: 'link_invalid',
  });
}
