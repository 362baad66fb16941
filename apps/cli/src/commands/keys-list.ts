import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { EXIT_OK } from '../cli-errors';
import { parseFlags } from '../cli-flags';
import { printJson } from '../cli-io';
import type { Command } from '../command';
import { accountByEmail, emailFlag } from './account-by-email';

const NAME = 'keys:list';

/** The account's keys as a JSON array (never the key or its hash). */
export const keysList: Command = {
  name: NAME,
  usage: `${NAME} --email <email>`,
  summary: "list an account's keys: id, name, start, status, created, last used, revoked",
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['email']);
    const account = await accountByEmail(context, emailFlag(NAME, flags));
    printJson(context.io, await new ApiKeyRepository(context.db()).listByEmail(account.email));
    return EXIT_OK;
  },
};
