import type { PaymentRepository } from '@credit/db/payment-repository';
import type { X402Settings } from '@credit/x402/x402-settings';
import type { AnswerStore } from '../domain/answer-store';
import type { Facilitator } from '../domain/facilitator';
import type { NonceGuard } from '../domain/nonce-guard';
import type { PaymentChain } from '../domain/payment-chain';
import type { SettlementOutcome } from '../domain/settlement-queue';

/** What the payments use cases work with. */
export interface PaymentsDeps {
  /** Verifies payments (the first signer's facilitator: verification sends nothing); each signer settles its own. */
  facilitator: Pick<Facilitator, 'supports' | 'verify'>;
  /** Whether a payment's own transfer is on chain: the only proof that it paid. */
  chain: PaymentChain;
  nonces: Pick<NonceGuard, 'take'>;
  answers: Pick<AnswerStore, 'put' | 'get'>;
  ledger: Pick<PaymentRepository, 'reserve' | 'find' | 'findByNonce' | 'markPaid' | 'markDelivered' | 'markFailed' | 'reservedPast'>;
  settlements: { settle(paymentId: string, deadline: number, waitMs: number): Promise<SettlementOutcome> };
  settings: X402Settings;
  /**
   * Longest the settle subject waits for its settlement; also how long past its request's deadline
   * a reserved payment is left to its settlement (one sent just before the deadline) before the sweep.
   */
  settleWaitMs: number;
  newId(): string;
  now(): Date;
  warn(message: string): void;
}

/** Injection token of the use cases' dependencies (provided by `PaymentsModule.forRoot`). */
export const PAYMENTS_DEPS = Symbol('PAYMENTS_DEPS');
