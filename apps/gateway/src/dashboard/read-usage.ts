import { Injectable } from '@nestjs/common';
import type { DashboardUsageReply } from '@credit/contracts/schemas/dashboard';
import type { AccountRecord } from '@credit/db/account-repository';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { Metering } from '../metering/metering';

/**
 * The usage page: the month's counter as `GET /users/me/usage` gives it (plan, limit, used,
 * remaining, period), and the CU of each day by operation from the usage ledger, which follows
 * the counter within the ledger's flush interval.
 */
@Injectable()
export class ReadUsage {
  constructor(
    private readonly metering: Metering,
    private readonly ledger: UsageLedgerRepository,
  ) {}

  async execute(account: AccountRecord): Promise<DashboardUsageReply> {
    const usage = await this.metering.usage(account);
    const daily = await this.ledger.dailyTotals(account.id, usage.period_start.slice(0, 7));
    return { ...usage, daily: daily.map((day) => ({ date: day.date, cu: day.cu, by_operation: day.byOperation })) };
  }
}
