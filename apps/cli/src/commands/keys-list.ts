import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { EXIT_OK, NotFoundError } from '../cli-errors';
import { parseEmail, parseFlags, requireFlag } from '../cli-flags';
import { printJson } from '../cli-io';
import type { Command } from '../command';

const NAME = 'keys:list';

/** The account's keys as a JSON array (never the key or its hash). */
export const keysList: Command = {
  name: NAME,
  usage: `${NAME} --email <email>`,
  summary: "list an account's keys: id, name, start, status, created, last used, revoked",
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['email']);
    const email = parseEmail(NAME, requireFlag(NAME, flags, 'email'));

    const account = await new AccountRepository(context.db()).findByEmail(email);
    if (account === null) throw new NotFoundError(`no account with email ${email}`);
    printJson(context.io, await new ApiKeyRepository(context.db()).listByEmail(account.email));
    return EXIT_OK;
  },
};
