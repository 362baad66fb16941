import { allowanceOf } from '@credit/contracts/pricing';
import { AccountRepository } from '@credit/db/account-repository';
import { broadcast } from '../broadcast';
import { UsageError } from '../cli-errors';
import { parseFlags, parseMonthlyCu, parsePlan, requireFlag } from '../cli-flags';
import { note, printJson } from '../cli-io';
import type { Command } from '../command';
import { accountByEmail, emailFlag, noAccountWith } from './account-by-email';

const NAME = 'accounts:set-plan';

/**
 * Sets the account's plan in Postgres (and, for enterprise, a contracted allowance of CU a month;
 * without --monthly-cu an enterprise account is unlimited), then broadcasts the change so that
 * every gateway drops the account's cached keys at once: the next request is metered against the
 * new monthly limit on every replica (a 429 for an exhausted allowance lifts at once).
 */
export const accountsSetPlan: Command = {
  name: NAME,
  usage: `${NAME} --email <email> --plan free|pro|enterprise [--monthly-cu <CU a month, enterprise only>]`,
  summary: "change an account's plan (enterprise: optionally a contracted monthly CU) and tell every gateway",
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['email', 'plan', 'monthly-cu']);
    const email = emailFlag(NAME, flags);
    const plan = parsePlan(NAME, requireFlag(NAME, flags, 'plan'));
    const monthlyCu = flags['monthly-cu'] === undefined ? null : parseMonthlyCu(NAME, flags['monthly-cu']);
    if (monthlyCu !== null && plan !== 'enterprise') {
      throw new UsageError(`${NAME}: --monthly-cu is for the enterprise plan only (plan ${plan} has its own allowance)`);
    }
    const { io } = context;

    const before = await accountByEmail(context, email);
    const account = await new AccountRepository(context.db()).setPlan(email, plan, monthlyCu).catch((error: unknown) => {
      if (error instanceof RangeError) throw new UsageError(`${NAME}: ${error.message}`);
      throw error;
    });
    if (account === null) throw noAccountWith(email);

    const limitBefore = allowanceOf(before.plan, before.monthlyCu);
    const limit = allowanceOf(account.plan, account.monthlyCu);
    if (before.plan === account.plan && before.monthlyCu === account.monthlyCu) {
      note(io, `account ${account.id} was already on plan ${account.plan} (${describeLimit(limit)}); broadcasting again`);
    } else {
      note(io, `account ${account.id}: plan ${before.plan} → ${account.plan}, ${describeLimit(limitBefore)} → ${describeLimit(limit)}`);
    }
    const code = await broadcast(
      context,
      'accountPlanChanged',
      { account_id: account.id, plan: account.plan, monthly_cu: account.monthlyCu },
      `account ${account.id} is on plan ${account.plan}`,
    );
    printJson(io, { account_id: account.id, email: account.email, plan: account.plan, monthly_limit: limit });
    return code;
  },
};

function describeLimit(limit: number | null): string {
  return limit === null ? 'unlimited CU' : `${limit} CU a month`;
}
