import type { Facilitator } from '../domain/facilitator';
import { SIGNER_BUSY } from '../domain/signer-send-lock';
import type { SettlementOutcome } from '../domain/settlement-queue';
import { expectedOf, recordUse, standing } from './chain-verdict';
import type { PaymentsDeps } from './payments-deps';
import type { StoredPayment } from './verify-payment';

/** @x402/evm's reason for a broadcast whose receipt did not come in time. */
const SETTLEMENT_PENDING = 'settlement_pending';

/**
 * One settlement, as its signer's queue worker runs it (several at once per signer across
 * replicas, their sends one at a time), sent by `facilitator`, the facilitator of the payment's
 * signer. A payment is paid
 * only when its own transfer, the exact amount from the payer to `payTo` in the offered token, is
 * on chain: its AuthorizationUsed log followed by that Transfer in one receipt. Before sending, the
 * chain is asked how the authorization stands: used by that transfer (a worker that died after
 * broadcasting) → paid, never sent twice; cancelled by the payer, or spent on another transfer
 * (say a 0-value transfer to itself) → failed, nothing served. A payment whose request stopped
 * waiting (`deadline` passed: a worker that died, a restart) is not sent at all. After sending,
 * the facilitator's word is checked on chain the same way. A chain that cannot be read is an
 * error: the queue tries again, and the next attempt asks the chain first.
 *
 * `firstRun` (no worker ran this settlement before, so none sent anything for it) skips the ask
 * before sending while the request still waits: an authorization the payer spent or cancelled
 * meanwhile makes the transfer fail (it reverts on chain; its gas is the facilitator's, as much as
 * the payer paid for its own transaction), and a failed send is followed by the same ask of the
 * chain, which then decides.
 */
export async function settleOne(
  paymentId: string,
  deadline: number,
  deps: PaymentsDeps,
  facilitator: Pick<Facilitator, 'settle'>,
  firstRun = false,
): Promise<SettlementOutcome> {
  const payment = await deps.ledger.find(paymentId);
  if (payment === null) return { ok: false, reason: 'unknown_payment', message: `no payment ${paymentId}` };
  const stands = standing(payment);
  if (stands !== undefined) return stands;
  const expected = expectedOf(payment);
  const late = () => deps.now().getTime() >= deadline;
  if (!firstRun || late()) {
    const before = await deps.chain.authorizationUse(expected);
    if (before.kind === 'unknown') throw new Error(`payment ${paymentId}: the chain cannot be read: ${before.message}`);
    const recorded = await recordUse(payment, before, deps);
    if (recorded !== undefined) return recorded;
  }
  if (late()) {
    const message = 'settlement_abandoned: the request stopped waiting for its settlement, so nothing was sent';
    await deps.ledger.markFailed(payment.id, message);
    return { ok: false, reason: 'settlement_abandoned', message };
  }
  const stored = payment.payload as StoredPayment;
  const result = await facilitator.settle(stored.payload, stored.requirements);
  const after = result.success ? await deps.chain.confirms(expected, result.transaction) : await deps.chain.authorizationUse(expected);
  const decided = await recordUse(payment, after, deps);
  if (decided !== undefined) return decided;
  if (after.kind === 'unknown' || result.errorReason === SETTLEMENT_PENDING) {
    // Sent, and not (yet) seen on chain: it may still land; the next attempt asks the chain first.
    throw new Error(`payment ${paymentId}: settlement ${result.transaction || '(none)'} not confirmed yet`);
  }
  // Its signer stayed busy (a killed replica's lease not lapsed yet): nothing sent, tried again.
  if (result.errorReason?.startsWith(SIGNER_BUSY)) throw new Error(`payment ${paymentId}: ${result.errorReason}`);
  const reason = result.errorReason ?? 'settlement_failed';
  const message = result.errorMessage ? `${reason}: ${result.errorMessage}` : reason;
  await deps.ledger.markFailed(payment.id, message);
  return { ok: false, reason, message };
}
