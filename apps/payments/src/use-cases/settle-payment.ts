import type { PaymentReleaseRequest, PaymentSettleReply } from '@credit/contracts/schemas/payment';
import type { z } from 'zod';
import type { SettlementOutcome } from '../domain/settlement-queue';
import { paymentRefused } from './payment-errors';
import type { PaymentsDeps } from './payments-deps';
import type { StoredPayment } from './verify-payment';

/**
 * The settle subject: the payment's settlement through the queue (once per payment), answered
 * with x402's settlement response, or refused (402) when it did not settle: the gateway then
 * serves nothing.
 */
export async function settlePayment(paymentId: string, deps: PaymentsDeps): Promise<PaymentSettleReply> {
  let outcome: SettlementOutcome;
  try {
    outcome = await deps.settlements.settle(paymentId, deps.settleWaitMs);
  } catch (error) {
    // Retries spent, or the wait ran out: what the chain says decides.
    outcome = await reconcile(paymentId, `settlement failed: ${(error as Error).message}`, deps);
  }
  if (!outcome.ok) throw paymentRefused(outcome.reason, `The payment did not settle: ${outcome.message}`);
  return { success: true, transaction: outcome.transaction, network: outcome.network, payer: outcome.payer };
}

/**
 * One settlement, as the queue's worker runs it (one at a time across replicas). A payment
 * already settled or failed answers as it stands; one whose authorization the chain shows used (a
 * worker that died after broadcasting) is recorded with that transaction, never sent twice; one
 * whose request gave up waiting (queued longer ago than the settle subject waits: a worker that
 * died, a restart) is not sent at all, since its answer was never served.
 */
export async function settleOne(paymentId: string, queuedAt: number, deps: PaymentsDeps): Promise<SettlementOutcome> {
  const payment = await deps.ledger.find(paymentId);
  if (payment === null) return { ok: false, reason: 'unknown_payment', message: `no payment ${paymentId}` };
  if (payment.status === 'settled') return settled(payment, payment.transaction ?? 'unknown');
  if (payment.status === 'failed') return { ok: false, reason: 'payment_failed', message: payment.error ?? 'failed' };
  const used = await deps.facilitator.usedBy(payment.network, payment.asset, payment.payer, payment.nonce);
  if (used) {
    await deps.ledger.markSettled(payment.id, used);
    return settled(payment, used);
  }
  if (deps.now().getTime() - queuedAt > deps.settleWaitMs) {
    const message = 'abandoned: the request stopped waiting for its settlement, so nothing was sent';
    await deps.ledger.markFailed(payment.id, message);
    return { ok: false, reason: 'settlement_abandoned', message };
  }
  const stored = payment.payload as StoredPayment;
  const result = await deps.facilitator.settle(stored.payload, stored.requirements);
  if (result.success) {
    await deps.ledger.markSettled(payment.id, result.transaction);
    return settled(payment, result.transaction);
  }
  const reason = result.errorReason ?? 'settlement_failed';
  const message = result.errorMessage ? `${reason}: ${result.errorMessage}` : reason;
  await deps.ledger.markFailed(payment.id, message);
  return { ok: false, reason, message };
}

/** After an error: settled if the chain shows the authorization used, else failed (nothing moved). */
async function reconcile(paymentId: string, message: string, deps: PaymentsDeps): Promise<SettlementOutcome> {
  const payment = await deps.ledger.find(paymentId);
  if (payment === null) return { ok: false, reason: 'unknown_payment', message: `no payment ${paymentId}` };
  if (payment.status === 'settled') return settled(payment, payment.transaction ?? 'unknown');
  const used = await deps.facilitator.usedBy(payment.network, payment.asset, payment.payer, payment.nonce).catch(() => undefined);
  if (used) {
    await deps.ledger.markSettled(payment.id, used);
    return settled(payment, used);
  }
  if (used === null) await deps.ledger.markFailed(payment.id, message);
  deps.warn(`payment ${paymentId}: ${message}`);
  return { ok: false, reason: 'settlement_failed', message };
}

function settled(payment: { network: string; payer: string }, transaction: string): SettlementOutcome {
  return { ok: true, transaction, network: payment.network, payer: payment.payer };
}

/** The release subject: the request was not served, so the payment is closed unsettled. */
export async function releasePayment(request: z.output<typeof PaymentReleaseRequest>, deps: PaymentsDeps): Promise<{ released: boolean }> {
  const row = await deps.ledger.markFailed(request.paymentId, `not settled: the request was answered ${request.statusCode}`);
  return { released: row !== null };
}

/**
 * Reserved payments nobody settles any more (the gateway died between verifying and settling or
 * releasing, or the payments service died before its settlement was queued): older than twice
 * the settle wait, so no request still waits on them. Settled when the chain shows the
 * authorization used, else failed (nothing is sent for them).
 */
export async function sweepAbandoned(deps: PaymentsDeps): Promise<number> {
  const now = deps.now().getTime();
  const stale = await deps.ledger.reservedOlderThan(new Date(now - 2 * deps.settleWaitMs), 100);
  let closed = 0;
  for (const payment of stale) {
    const used = await deps.facilitator.usedBy(payment.network, payment.asset, payment.payer, payment.nonce);
    if (used === undefined && payment.validBefore * 1000 > now) continue; // an external facilitator: wait until it lapses
    if (used) await deps.ledger.markSettled(payment.id, used);
    else await deps.ledger.markFailed(payment.id, 'abandoned: never settled, and the chain shows the authorization unused');
    closed += 1;
  }
  return closed;
}
