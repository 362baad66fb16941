import { z } from 'zod';

/**
 * The payments service's wire (internal subjects the gateway sends on an x402 request). The x402
 * objects themselves (payload, requirements) are the x402 specification's and are checked by its
 * facilitator code; here they travel as JSON objects.
 */
const X402Object = z.record(z.string(), z.unknown());

/** Largest answer body kept for a retry (a larger answer is served and settled, but not kept). */
export const MAX_KEPT_ANSWER_CHARS = 512 * 1024;

/**
 * A paid request's answer as it was served: kept by the payments service for X402_ANSWER_TTL_S, so a
 * retry of the same payment (after a timeout, a lost connection) gets what it paid for.
 */
export const PaymentAnswer = z.object({
  /** `<METHOD> <path and query>`: a retry gets the answer only on the same request. */
  resource: z.string().min(1).max(4200),
  statusCode: z.number().int().min(200).max(399),
  contentType: z.string().max(200),
  body: z.string().max(MAX_KEPT_ANSWER_CHARS),
});
export type PaymentAnswer = z.infer<typeof PaymentAnswer>;

export const PaymentVerifyRequest = z.object({
  x402Version: z.union([z.literal(1), z.literal(2)]),
  /** The decoded `X-PAYMENT` (v1) or `PAYMENT-SIGNATURE` (v2) header. */
  payload: X402Object,
  /** The one requirement of this request's challenge the payload answers. */
  requirements: X402Object,
  requestId: z.string().min(1).max(200),
  operation: z.string().min(1).max(100),
  cu: z.number().int().positive(),
  /** `<METHOD> <path and query>` of the request: a retry of a settled payment gets its answer only here. */
  resource: z.string().min(1).max(4200),
  /**
   * Epoch ms after which the gateway no longer waits on this request (its run, then its
   * settlement): until then the payments service's sweep leaves the reserved payment alone. Absent
   * (a gateway from before it was sent): one settle wait from now.
   */
  deadline: z.number().int().positive().optional(),
});
export type PaymentVerifyRequest = z.infer<typeof PaymentVerifyRequest>;

export const PaymentVerifyReply = z.object({
  /** The payments ledger's id of this payment, reserved until settled or released. */
  paymentId: z.string(),
  payer: z.string(),
  network: z.string(),
  /**
   * The same payment again, already settled and its answer kept: the answer it paid for and its
   * settlement, served as they are (nothing is verified, run or settled again).
   */
  replay: z.object({ transaction: z.string(), answer: PaymentAnswer }).optional(),
});
export type PaymentVerifyReply = z.infer<typeof PaymentVerifyReply>;

export const PaymentSettleRequest = z.object({
  paymentId: z.string().min(1).max(100),
  /** Epoch ms at which the gateway stops waiting: a settlement confirmed later is `unserved`. */
  deadline: z.number().int().positive(),
  /** The answer the payment buys, kept for a retry (absent: too large to keep). */
  answer: PaymentAnswer.optional(),
});

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
