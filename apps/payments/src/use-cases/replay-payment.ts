import type { PaymentRecord } from '@credit/db/payment-repository';
import type { PaymentVerifyReply, PaymentVerifyRequest } from '@credit/contracts/schemas/payment';
import { authorizationOf } from '../domain/authorization';
import { facilitatorUnavailable, paymentRefused } from './payment-errors';
import type { PaymentsDeps } from './payments-deps';
import type { StoredPayment } from './verify-payment';

/**
 * A payment whose nonce is already recorded. Only the very payment (the same signature over the
 * same authorization, which was verified when it was recorded), already paid on chain, on the
 * same request, and within X402_ANSWER_TTL_S, gets something: the answer it paid for, and its
 * settlement (the ledger then says `settled`: handed over). Anything else is
 * `payment_already_used`, with what the payer can do about it.
 */
export async function replayOf(prior: PaymentRecord, request: PaymentVerifyRequest, deps: PaymentsDeps): Promise<PaymentVerifyReply> {
  const used = (why: string) => paymentRefused('payment_already_used', `This payment was already used${why}`);
  if (!samePayment(prior, request)) throw used(': sign a new one');
  if (prior.status === 'reserved') {
    throw used(' by a request still running: if that request failed to answer, send it again in a few seconds to get its answer');
  }
  if (prior.status === 'failed') throw used(`, and did not settle (${prior.error ?? 'failed'}): sign a new one`);
  let answer;
  try {
    answer = await deps.answers.get(prior.id);
  } catch (error) {
    throw facilitatorUnavailable(error, deps);
  }
  if (answer === undefined) throw used(': its answer is no longer kept (an unserved payment is refunded): sign a new one');
  if (answer.resource !== request.resource) throw used(`, for ${answer.resource}: send it there to get its answer, or sign a new one`);
  await deps.ledger.markDelivered(prior.id);
  return { paymentId: prior.id, payer: prior.payer, network: prior.network, replay: { transaction: prior.transaction ?? '', answer } };
}

/** The same signed authorization: its signature (which covered every field) and every field. */
function samePayment(prior: PaymentRecord, request: PaymentVerifyRequest): boolean {
  const stored = (prior.payload as StoredPayment).payload as unknown as Record<string, unknown>;
  const a = authorizationOf(stored);
  const b = authorizationOf(request.payload);
  if (a === undefined || b === undefined || signatureOf(stored) !== signatureOf(request.payload)) return false;
  return (Object.keys(a) as (keyof typeof a)[]).every((k) => String(a[k]).toLowerCase() === String(b[k]).toLowerCase());
}

function signatureOf(payload: Record<string, unknown>): string | undefined {
  const inner = payload.payload as Record<string, unknown> | undefined;
  return typeof inner?.signature === 'string' ? inner.signature.toLowerCase() : undefined;
}
