import { allowanceOf } from '@credit/contracts/pricing';
import { SCORE_CHANGED_CU } from '@credit/contracts/schemas/webhooks';
import type { Watch } from '@credit/db/webhook-score-repository';
import type { Meter, RatePolicy } from '@credit/metering/meter';

/**
 * Events are charged, not rate limited: the bucket is there because every admission has one, and
 * holds more than any account's events of a second.
 */
const EVENT_POLICY: RatePolicy = { name: 'webhook-events', capacity: 1_000_000, windowMs: 1_000 };

/** The ledger's operation for a queued `score.changed`. */
export const SCORE_CHANGED_OPERATION = 'webhookScoreChanged';

/**
 * Charges one `score.changed` to its account through the metering the gateway uses (`Meter`: the
 * monthly counter in Redis, the ledger entry through the outbox to `usage_ledger`): reserved and
 * kept, as a served request's CU. False when the account's allowance has no room for it.
 */
export async function chargeEvent(meter: Pick<Meter, 'admit'>, watch: Watch, eventId: string): Promise<boolean> {
  const admission = await meter.admit({
    accountId: watch.accountId,
    keyId: null,
    operation: SCORE_CHANGED_OPERATION,
    cost: SCORE_CHANGED_CU,
    allowance: allowanceOf(watch.plan, watch.monthlyCu),
    policy: EVENT_POLICY,
    requestId: eventId,
  });
  if (admission.kind === 'rate_limited') throw new Error(`the event bucket of ${watch.accountId} is empty`);
  return admission.kind === 'admitted';
}
