import { expectedOf, recordUse } from './chain-verdict';
import type { PaymentsDeps } from './payments-deps';

/**
 * Reserved payments nobody settles any more (the gateway died between verifying and settling or
 * releasing, the payments service died before or while settling). Only those whose request
 * stopped waiting: past the deadline the gateway gave when it verified them (its operation's
 * timeout, then its settlement's), and one settle wait more, the longest a settlement sent just
 * before that deadline takes to be confirmed. A slow request still running is never touched. The
 * chain decides, as for a settlement: the payment's own transfer on chain → paid but `unserved`
 * (its request is gone: a retry can still take the answer, else it is refunded); the
 * authorization cancelled or spent another way → failed with the reason; unused → failed
 * (nothing is sent for them); the chain unreadable → left for the next sweep.
 */
export async function sweepAbandoned(deps: PaymentsDeps): Promise<number> {
  const now = deps.now().getTime();
  const stale = await deps.ledger.reservedPast(new Date(now - deps.settleWaitMs), 100);
  let closed = 0;
  for (const payment of stale) {
    const use = await deps.chain.authorizationUse(expectedOf(payment));
    if (use.kind === 'unknown') continue;
    if ((await recordUse(payment, use, deps)) === undefined) {
      await deps.ledger.markFailed(payment.id, 'abandoned: never settled, and the chain shows the authorization unused');
    }
    closed += 1;
  }
  return closed;
}
