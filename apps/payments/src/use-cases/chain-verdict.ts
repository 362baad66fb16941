import type { PaymentRecord } from '@credit/db/payment-repository';
import type { AuthorizationUse, ExpectedTransfer } from '../domain/payment-chain';
import type { SettlementOutcome } from '../domain/settlement-queue';
import type { PaymentsDeps } from './payments-deps';

/** The transfer a recorded payment promised (what its settlement must show on chain). */
export function expectedOf(payment: PaymentRecord): ExpectedTransfer {
  return {
    network: payment.network,
    asset: payment.asset,
    payer: payment.payer,
    payTo: payment.payTo,
    amount: payment.amount,
    nonce: payment.nonce,
  };
}

export function paid(payment: Pick<PaymentRecord, 'network' | 'payer'>, transaction: string): SettlementOutcome {
  return { ok: true, transaction, network: payment.network, payer: payment.payer };
}

/**
 * Records what the chain says of a payment's authorization, when it decides: its own transfer →
 * paid (`unserved` until its answer is handed over); cancelled or spent another way → failed with
 * the reason. Unused or unreadable decides nothing (undefined): the caller knows what that means.
 */
export async function recordUse(payment: PaymentRecord, use: AuthorizationUse, deps: PaymentsDeps): Promise<SettlementOutcome | undefined> {
  if (use.kind === 'paid') {
    const row = await deps.ledger.markPaid(payment.id, use.transaction);
    if (row === null)
      return { ok: false, reason: 'payment_failed', message: `payment ${payment.id} was recorded with another transaction` };
    return paid(payment, use.transaction);
  }
  if (use.kind === 'misused') {
    const message = `${use.reason}: ${use.message}`;
    await deps.ledger.markFailed(payment.id, message);
    return { ok: false, reason: use.reason, message };
  }
  return undefined;
}

/** A settled (or unserved) payment as it stands; a failed one as its refusal; undefined while reserved. */
export function standing(payment: PaymentRecord): SettlementOutcome | undefined {
  if (payment.status === 'settled' || payment.status === 'unserved') return paid(payment, payment.transaction ?? '');
  if (payment.status === 'failed') {
    const error = payment.error ?? 'failed';
    const reason = /^([a-z0-9_]+):/.exec(error)?.[1] ?? 'payment_failed';
    return { ok: false, reason, message: error };
  }
  return undefined;
}
