import { AccountRepository, type AccountRecord } from '@credit/db/account-repository';
import { NotFoundError } from '../cli-errors';
import { parseEmail, requireFlag } from '../cli-flags';
import type { CommandContext } from '../command';

/** The command's --email: required, a plausible address, lowercased (a usage error otherwise). */
export function emailFlag(command: string, flags: { email?: string }): string {
  return parseEmail(command, requireFlag(command, flags, 'email'));
}

/** What a command answers when no account has this email (exit code 1). */
export function noAccountWith(email: string): NotFoundError {
  return new NotFoundError(`no account with email ${email}`);
}

/** The account with this email; NotFoundError when there is none. */
export async function accountByEmail(context: CommandContext, email: string): Promise<AccountRecord> {
  const account = await new AccountRepository(context.db()).findByEmail(email);
  if (account === null) throw noAccountWith(email);
  return account;
}
