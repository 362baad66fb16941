import { z } from 'zod';

/**
 * The payments service's wire (internal subjects the gateway sends on an x402 request). The x402
 * objects themselves (payload, requirements) are the x402 specification's and are checked by its
 * facilitator code; here they travel as JSON objects.
 */
const X402Object = z.record(z.string(), z.unknown());

export const PaymentVerifyRequest = z.object({
  x402Version: z.union([z.literal(1), z.literal(2)]),
  /** The decoded `X-PAYMENT` (v1) or `PAYMENT-SIGNATURE` (v2) header. */
  payload: X402Object,
  /** The one requirement of this request's challenge the payload answers. */
  requirements: X402Object,
  requestId: z.string().min(1).max(200),
  operation: z.string().min(1).max(100),
  cu: z.number().int().positive(),
});
export type PaymentVerifyRequest = z.infer<typeof PaymentVerifyRequest>;

export const PaymentVerifyReply = z.object({
  /** The payments ledger's id of this payment, reserved until settled or released. */
  paymentId: z.string(),
  payer: z.string(),
  network: z.string(),
});
export type PaymentVerifyReply = z.infer<typeof PaymentVerifyReply>;

export const PaymentSettleRequest = z.object({ paymentId: z.string().min(1).max(100) });

/** x402's settlement response, as the `PAYMENT-RESPONSE` header carries it (base64 JSON). */
export const PaymentSettleReply = z.object({
  success: z.literal(true),
  transaction: z.string(),
  network: z.string(),
  payer: z.string(),
});
export type PaymentSettleReply = z.infer<typeof PaymentSettleReply>;

export const PaymentReleaseRequest = z.object({
  paymentId: z.string().min(1).max(100),
  /** The status the request was answered with (why nothing is settled). */
  statusCode: z.number().int(),
});

export const PaymentReleaseReply = z.object({ released: z.boolean() });
