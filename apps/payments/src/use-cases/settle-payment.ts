import { DomainError } from '@credit/contracts/errors';
import type { PaymentSettleReply, PaymentSettleRequest } from '@credit/contracts/schemas/payment';
import type { z } from 'zod';
import type { SettlementOutcome } from '../domain/settlement-queue';
import { expectedOf, recordUse, standing } from './chain-verdict';
import { facilitatorUnavailable, paymentRefused } from './payment-errors';
import type { PaymentsDeps } from './payments-deps';

/** Kept back from the gateway's deadline for the reply's way back: handed over later, it would be lost. */
const DELIVERY_MARGIN_MS = 1_000;

/**
 * The settle subject: keeps the answer the payment buys (for a retry of the same payment), settles
 * the payment through the queue (once per payment), and hands the answer over: the ledger says
 * `settled` only then, before the gateway's deadline. A payment that did not settle is refused
 * (402: the gateway serves nothing); one still unknown at the deadline is a 504 whose message says
 * to send the same payment again (it gets the answer if the settlement lands, else a 402).
 */
export async function settlePayment(request: z.output<typeof PaymentSettleRequest>, deps: PaymentsDeps): Promise<PaymentSettleReply> {
  const now = deps.now().getTime();
  const deadline = Math.min(request.deadline - Math.min(DELIVERY_MARGIN_MS, (request.deadline - now) / 4), now + deps.settleWaitMs);
  if (request.answer !== undefined) {
    try {
      await deps.answers.put(request.paymentId, request.answer);
    } catch (error) {
      // Nothing queued: the sweep closes the reservation (nothing was sent).
      throw facilitatorUnavailable(error, deps);
    }
  }
  let outcome: SettlementOutcome;
  try {
    outcome = await deps.settlements.settle(request.paymentId, deadline, Math.max(1, deadline - now));
  } catch (error) {
    outcome = await reconcile(request.paymentId, deadline, `settlement failed: ${(error as Error).message}`, deps);
  }
  if (!outcome.ok && outcome.pending) throw stillSettling(outcome.message);
  if (!outcome.ok) throw paymentRefused(outcome.reason, `The payment did not settle: ${outcome.message}`);
  if (deps.now().getTime() >= deadline) throw stillSettling('settled after the request stopped waiting');
  const row = await deps.ledger.markDelivered(request.paymentId);
  if (row?.status !== 'settled') throw stillSettling(`payment ${request.paymentId} is ${row?.status ?? 'unknown'}`);
  return { success: true, transaction: outcome.transaction, network: outcome.network, payer: outcome.payer };
}

function stillSettling(why: string): DomainError {
  return new DomainError(
    'upstream_timeout',
    `The payment's settlement is not confirmed yet (${why}): send the same request with the same payment again to get its answer once it is`,
  );
}

/**
 * The queue's wait ended without an outcome: out of time (the settlement may still land: pending),
 * or the job gave up after its retries: then the chain decides (its own transfer → paid; unused or
 * used another way → failed; unreadable → pending, and the sweep decides later).
 */
async function reconcile(paymentId: string, deadline: number, message: string, deps: PaymentsDeps): Promise<SettlementOutcome> {
  const payment = await deps.ledger.find(paymentId);
  if (payment === null) return { ok: false, reason: 'unknown_payment', message: `no payment ${paymentId}` };
  const stands = standing(payment);
  if (stands !== undefined) return stands;
  deps.warn(`payment ${paymentId}: ${message}`);
  if (deps.now().getTime() >= deadline) return { ok: false, reason: 'settlement_pending', message, pending: true };
  const use = await deps.chain.authorizationUse(expectedOf(payment));
  const recorded = await recordUse(payment, use, deps);
  if (recorded !== undefined) return recorded;
  if (use.kind === 'unknown') return { ok: false, reason: 'settlement_pending', message: use.message, pending: true };
  await deps.ledger.markFailed(payment.id, `settlement_failed: ${message}`);
  return { ok: false, reason: 'settlement_failed', message };
}
