import { allowanceOf } from '@credit/contracts/pricing';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { Meter } from '@credit/metering/meter';
import { MeterKeys } from '@credit/metering/meter-keys';
import { periodAt } from '@credit/metering/period';
import { EXIT_OK, RedisUnavailableError } from '../cli-errors';
import { parseFlags } from '../cli-flags';
import { note, printJson } from '../cli-io';
import type { Command } from '../command';
import { accountByEmail, emailFlag } from './account-by-email';

const NAME = 'accounts:show';

/**
 * The account with this email: its plan and monthly limit, how many keys it has in each state, and
 * its CU in the current month (UTC) twice over: `used` from the metering's Redis counter (what the
 * gateways enforce) and `ledger_used` / `by_operation` from the Postgres ledger (which follows the
 * counter within seconds). The counter is only read, never created: when there is none, `used` is
 * 0 and `counter_present` false.
 */
export const accountsShow: Command = {
  name: NAME,
  usage: `${NAME} --email <email>`,
  summary: "show an account: id, plan, monthly limit, flags, key counts, this month's CU",
  async run(args, context) {
    const flags = parseFlags(NAME, args, ['email']);
    const account = await accountByEmail(context, emailFlag(NAME, flags));
    const keys = await new ApiKeyRepository(context.db()).listByEmail(account.email);
    const period = periodAt(Date.now());
    const ledger = new UsageLedgerRepository(context.db());
    const ledgerTotals = await ledger.periodTotals(account.id, period.id);
    const meter = new Meter(await context.redis(), new MeterKeys(context.config().NATS_SUBJECT_PREFIX), ledger);
    const counter = await meter.peek(account.id, period.id).catch((error: unknown) => {
      throw new RedisUnavailableError(error instanceof Error ? error.message : String(error));
    });
    if (counter === null) {
      note(context.io, `no CU counter in Redis for ${period.id} (the next metered request makes it from the ledger): used shows 0`);
    }

    printJson(context.io, {
      account_id: account.id,
      email: account.email,
      plan: account.plan,
      monthly_limit: allowanceOf(account.plan, account.monthlyCu),
      is_active: account.isActive,
      is_verified: account.isVerified,
      created_at: account.createdAt.toISOString(),
      active_keys: keys.filter((key) => key.status === 'active').length,
      revoked_keys: keys.filter((key) => key.status === 'revoked').length,
      period: period.id,
      period_end: period.end.toISOString(),
      used: counter?.used ?? 0,
      counter_present: counter !== null,
      ledger_used: ledgerTotals.used,
      by_operation: ledgerTotals.byOperation,
    });
    return EXIT_OK;
  },
};
