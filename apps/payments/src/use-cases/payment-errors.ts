import { DomainError } from '@credit/contracts/errors';
import type { PaymentsDeps } from './payments-deps';

/** A payment that does not pay: the gateway answers 402 with the challenge and this reason. */
export function paymentRefused(reason: string, message: string): DomainError {
  return new DomainError('payment_required', message, { reason });
}

/** The facilitator's chain, or Redis, could not be asked: 503, and the payment is not taken. */
export function facilitatorUnavailable(error: unknown, deps: Pick<PaymentsDeps, 'warn'>): DomainError {
  deps.warn(`payment verification unavailable: ${(error as Error).message}`);
  return new DomainError('service_unavailable', 'Payment verification is unavailable; try again shortly');
}
