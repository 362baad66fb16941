import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { EXIT_OK, NotFoundError } from '../cli-errors';
import { parseEmail, parseFlags, requireFlag } from '../cli-flags';
import { printJson } from '../cli-io';
import type { Command } from '../command';

const NAME = 'accounts:show';

/** The account with this email, with how many keys it has in each state. */
export const accountsShow: Command = {
  name: NAME,
  usage: `${NAME} --email <email>`,
  summary: 'show an account: id, plan, flags, key counts',
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['email']);
    const email = parseEmail(NAME, requireFlag(NAME, flags, 'email'));

    const account = await new AccountRepository(context.db()).findByEmail(email);
    if (account === null) throw new NotFoundError(`no account with email ${email}`);
    const keys = await new ApiKeyRepository(context.db()).listByEmail(account.email);
    printJson(context.io, {
      account_id: account.id,
      email: account.email,
      plan: account.plan,
      is_active: account.isActive,
      is_verified: account.isVerified,
      created_at: account.createdAt.toISOString(),
      active_keys: keys.filter((key) => key.status === 'active').length,
      revoked_keys: keys.filter((key) => key.status === 'revoked').length,
    });
    return EXIT_OK;
  },
};
