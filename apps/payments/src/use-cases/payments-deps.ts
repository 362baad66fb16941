import type { PaymentRepository } from '@credit/db/payment-repository';
import type { X402Settings } from '@credit/x402/x402-settings';
import type { Facilitator } from '../domain/facilitator';
import type { NonceGuard } from '../domain/nonce-guard';
import type { SettlementOutcome } from '../domain/settlement-queue';

/** What the payments use cases work with. */
export interface PaymentsDeps {
  facilitator: Facilitator;
  nonces: Pick<NonceGuard, 'take'>;
  ledger: Pick<PaymentRepository, 'reserve' | 'find' | 'markSettled' | 'markFailed' | 'reservedOlderThan'>;
  settlements: { settle(paymentId: string, waitMs: number): Promise<SettlementOutcome> };
  settings: X402Settings;
  /** How long the settle subject waits for its settlement. */
  settleWaitMs: number;
  newId(): string;
  now(): Date;
  warn(message: string): void;
}

/** Injection token of the use cases' dependencies (provided by `PaymentsModule.forRoot`). */
export const PAYMENTS_DEPS = Symbol('PAYMENTS_DEPS');
