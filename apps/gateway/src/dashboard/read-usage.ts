import { Injectable } from '@nestjs/common';
import { HTTP_OPERATIONS, OPERATION_IDS } from '@credit/contracts/http-operations';
import { PLANS, PLAN_NAMES, type PlanName } from '@credit/contracts/pricing';
import type { DashboardUsageReply, OperationPrice } from '@credit/contracts/schemas/dashboard';
import type { AccountRecord } from '@credit/db/account-repository';
import { ApiKeyRepository } from '@credit/db/api-key-repository';
import { UsageLedgerRepository } from '@credit/db/usage-ledger-repository';
import { UsageStatusRepository, type KeyStatusTotals } from '@credit/db/usage-status-repository';
import { Metering } from '../metering/metering';

/** Every operation's production price, in the table's order: the contracts' figures, never the page's. */
const PRICES: OperationPrice[] = OPERATION_IDS.map((id) => ({
  operation: id,
  summary: HTTP_OPERATIONS[id].summary,
  kind: HTTP_OPERATIONS[id].price.kind,
  cu: HTTP_OPERATIONS[id].price.cu,
}));

/**
 * The usage page: the month's counter as `GET /users/me/usage` gives it (plan, limit, used,
 * remaining, period), and the CU of each day by operation and of each key from the usage ledger,
 * which follows the counter within the ledger's flush interval, with each key's requests by status; the operations' prices and the
 * plan's rate limit (the policy the `RateLimit-Policy` header states); every plan's allowance and
 * rate limit, from the table and the policies the metering applies.
 */
@Injectable()
export class ReadUsage {
  constructor(
    private readonly metering: Metering,
    private readonly ledger: UsageLedgerRepository,
    private readonly keys: ApiKeyRepository,
    private readonly statuses: UsageStatusRepository,
  ) {}

  async execute(account: AccountRecord): Promise<DashboardUsageReply> {
    const usage = await this.metering.usage(account);
    const period = usage.period_start.slice(0, 7);
    const [daily, keyTotals, keyStatuses, keys] = await Promise.all([
      this.ledger.dailyTotals(account.id, period),
      this.ledger.keyTotals(account.id, period),
      this.statuses.keyTotals(account.id, period),
      this.keys.listByAccount(account.id),
    ]);
    const keyById = new Map(keys.map((key) => [key.key_id, key]));
    const rateLimit = (plan: PlanName) => {
      const policy = this.metering.policy('api', plan);
      return { requests: policy.capacity, window_seconds: Math.round(policy.windowMs / 1000) };
    };
    return {
      ...usage,
      daily: daily.map((day) => ({ date: day.date, cu: day.cu, by_operation: day.byOperation })),
      by_key: keysUsed(keyTotals, keyStatuses).map(({ keyId, cu, requests }) => ({
        key_id: keyId,
        name: keyById.get(keyId)?.name ?? 'deleted key',
        start: keyById.get(keyId)?.start ?? '',
        cu,
        requests,
      })),
      prices: PRICES,
      rate_limit: rateLimit(account.plan),
      plans: PLAN_NAMES.map((name) => ({ name, monthly_cu: PLANS[name].monthlyCu, rate_limit: rateLimit(name) })),
    };
  }
}

/** Every key with CU or requests in the period: by CU (the ledger's order), then the keys of requests only. */
function keysUsed(
  cuByKey: readonly { keyId: string; cu: number }[],
  statuses: readonly KeyStatusTotals[],
): { keyId: string; cu: number; requests: KeyStatusTotals['requests'] }[] {
  const requestsOf = new Map(statuses.map((totals) => [totals.keyId, totals.requests]));
  const none = { '2xx': 0, '4xx': 0, '429': 0, '5xx': 0 };
  const withCu = cuByKey.map(({ keyId, cu }) => ({ keyId, cu, requests: requestsOf.get(keyId) ?? none }));
  const seen = new Set(cuByKey.map((total) => total.keyId));
  const requestsOnly = statuses.filter((totals) => !seen.has(totals.keyId)).map(({ keyId, requests }) => ({ keyId, cu: 0, requests }));
  return [...withCu, ...requestsOnly];
}
