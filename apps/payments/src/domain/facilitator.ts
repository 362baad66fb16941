import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';

/**
 * What the payments service asks of an x402 facilitator (self-hosted here, or external by URL). Its
 * word that a payment settled is checked on chain (PaymentChain), never taken as it is.
 */
export interface Facilitator {
  /** Whether it verifies and settles payments of this x402 version on this network (v1: its name; v2: CAIP-2). */
  supports(x402Version: 1 | 2, network: string): boolean;
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}
