import { AccountRepository } from '@credit/db/account-repository';
import { ApiKeyRepository, checkApiKeyName } from '@credit/db/api-key-repository';
import type { PlanName } from '@credit/contracts/pricing';
import { EXIT_OK, UsageError } from '../cli-errors';
import { parseFlags, parsePlan, requireFlag } from '../cli-flags';
import { note, printJson } from '../cli-io';
import type { Command } from '../command';
import { emailFlag } from './account-by-email';

const NAME = 'keys:create';
const DEFAULT_PLAN: PlanName = 'free';

/**
 * Creates a key for the account with this email, creating the account first when there is none
 * (on the plan given, `free` by default). stdout gets exactly one JSON object:
 * `{"account_id","key_id","key"}`; the key is shown this once.
 */
export const keysCreate: Command = {
  name: NAME,
  usage: `${NAME} --email <email> --name <key name> [--plan free|pro|enterprise]`,
  summary: 'create an API key (and the account, if new); prints the key once',
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['email', 'plan', 'name']);
    const email = emailFlag(NAME, flags);
    const checkedName = checkApiKeyName(requireFlag(NAME, flags, 'name'));
    if (!checkedName.ok) throw new UsageError(`${NAME}: ${checkedName.reason}`);
    const requestedPlan = flags.plan === undefined ? undefined : parsePlan(NAME, flags.plan);
    const { io } = context;

    const { account, created } = await new AccountRepository(context.db()).findOrCreateByEmail(email, requestedPlan ?? DEFAULT_PLAN);
    if (created) {
      note(io, `created account ${account.id} (${account.email}) on plan ${account.plan}${requestedPlan ? '' : ' (default)'}`);
    } else if (requestedPlan !== undefined && requestedPlan !== account.plan) {
      note(io, `account ${account.id} already exists on plan ${account.plan}: keeping it (--plan ${requestedPlan} ignored)`);
    }
    if (!account.isActive) {
      note(io, `warning: account ${account.id} is deactivated; its keys do not authenticate until it is reactivated`);
    }

    const key = await new ApiKeyRepository(context.db()).create({ accountId: account.id, name: checkedName.name });
    printJson(io, { account_id: account.id, key_id: key.keyId, key: key.key });
    note(io, `created key ${key.keyId} "${key.record.name}": store the key now, it is not shown again`);
    return EXIT_OK;
  },
};
