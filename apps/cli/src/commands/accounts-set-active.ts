import { AccountRepository } from '@credit/db/account-repository';
import { broadcast } from '../broadcast';
import { parseFlags } from '../cli-flags';
import { note, printJson } from '../cli-io';
import type { Command } from '../command';
import { emailFlag, noAccountWith } from './account-by-email';

/**
 * `accounts:disable` / `accounts:enable`: sets the account's state in Postgres, then broadcasts it
 * so that every gateway drops the account's cached keys at once (a disabled account's keys answer
 * 401 from the next request on, on every replica).
 */
function setActiveCommand(name: 'accounts:disable' | 'accounts:enable', isActive: boolean, summary: string): Command {
  return {
    name,
    usage: `${name} --email <email>`,
    summary,
    async run(args, context) {
      const flags = parseFlags(name, args, ['email']);
      const email = emailFlag(name, flags);
      const result = await new AccountRepository(context.db()).setActive(email, isActive);
      if (result === null) throw noAccountWith(email);
      const state = isActive ? 'enabled' : 'disabled';
      if (!result.changed) note(context.io, `account ${result.account.id} was already ${state}; broadcasting again`);
      const code = await broadcast(
        context,
        'accountStatusChanged',
        { account_id: result.account.id, is_active: isActive },
        `account ${result.account.id} is ${state}`,
      );
      printJson(context.io, { account_id: result.account.id, email: result.account.email, is_active: isActive });
      return code;
    },
  };
}

export const accountsDisable = setActiveCommand('accounts:disable', false, 'disable an account: every key of it answers 401 at once');
export const accountsEnable = setActiveCommand('accounts:enable', true, 'enable a disabled account again');
