import { Injectable } from '@nestjs/common';
import { DomainError } from '@credit/contracts/errors';
import type { VerifyEmailReply } from '@credit/contracts/schemas/dashboard';
import { EmailVerificationRepository } from '@credit/db/email-verification-repository';
import { isWellFormedToken, tokenHash } from './dashboard-tokens';

/** Following a sign-up's email link: creates the account or claims the CLI's, once; sets `is_verified`. */
@Injectable()
export class VerifyEmail {
  constructor(private readonly verifications: EmailVerificationRepository) {}

  async execute(token: string): Promise<VerifyEmailReply> {
    if (!isWellFormedToken(token)) throw invalidLink();
    const outcome = await this.verifications.consume(tokenHash(token), new Date());
    switch (outcome.kind) {
      case 'created':
      case 'claimed':
        return { email: outcome.account.email, is_verified: true };
      case 'already_claimed':
        throw new DomainError('invalid_token', 'This email already has an account: sign in, or sign up again with another email');
      case 'invalid':
        throw invalidLink();
    }
  }
}

function invalidLink(): DomainError {
  return new DomainError('invalid_token', 'This verification link is invalid, used or expired: sign up again for a new one');
}
