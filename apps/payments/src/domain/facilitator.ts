import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';

/** What the payments service asks of an x402 facilitator (self-hosted here, or external by URL). */
export interface Facilitator {
  /** Whether it verifies and settles payments of this x402 version on this network (v1: its name; v2: CAIP-2). */
  supports(x402Version: 1 | 2, network: string): boolean;
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
  /**
   * The transaction that used this authorization, when the chain says it was used (a settlement
   * whose sender crashed before recording it); null when unused; undefined when this facilitator
   * cannot tell (an external one).
   */
  usedBy(network: string, asset: string, payer: string, nonce: string): Promise<string | null | undefined>;
}
