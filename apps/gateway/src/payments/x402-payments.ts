import { Inject, Injectable, Logger } from '@nestjs/common';
import { encodePaymentResponseHeader } from '@x402/core/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, errorBody } from '@credit/contracts/errors';
import { HTTP_OPERATIONS, type OperationId } from '@credit/contracts/http-operations';
import { MAX_KEPT_ANSWER_CHARS, type PaymentAnswer, type PaymentSettleReply } from '@credit/contracts/schemas/payment';
import { SUBJECTS, type SubjectName } from '@credit/contracts/subjects';
import { challengeOf, type Challenge } from '@credit/x402/challenge';
import { offeredPayment, PaymentRejected } from '@credit/x402/payment-header';
import { x402Settings, type X402Settings } from '@credit/x402/x402-settings';
import { RpcClient } from '@credit/rpc/rpc-client';
import type { GatewayConfig } from '../config';
import { GATEWAY_CONFIG } from '../gateway-config.token';
import { Metering } from '../metering/metering';
import { x402Settlements, x402Verifications } from '../observability/gateway-metrics';

/** A verified payment riding on its request until the response settles or releases it. */
export interface PaidRequest {
  paymentId: string;
  payer: string;
  network: string;
  challenge: Challenge;
  /** `<METHOD> <url>`: the request its answer is kept for. */
  resource: string;
}

/**
 * The gateway's x402 use case (docs/ARCHITECTURE.md, "Paying per request"): a priced production
 * request without an Authorization header is answered 402 with the payment challenge, or, with a
 * payment header, rate limited per client address, verified by the payments service (which
 * reserves the payment's nonce) and then rate limited per verified payer; the response settles it
 * when it is a success, before it is sent (its answer kept for a retry of the same payment), or
 * releases it. The same payment sent again after it settled is answered with what it paid for.
 */
@Injectable()
export class X402Payments {
  private readonly logger = new Logger('x402');
  readonly settings: X402Settings | undefined;
  private readonly signupPath: string | undefined;
  /** How long a settlement is waited for (the subject's timeout, capped as the RPC client caps it). */
  private readonly settleTimeoutMs: number;

  constructor(
    private readonly rpc: RpcClient,
    private readonly metering: Metering,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    this.settings = x402Settings(config);
    this.signupPath = config.SIGNUP_URL;
    this.settleTimeoutMs = this.timeoutOf('credit.payments.settle.v1');
  }

  /** How long a request on `subject` is waited for: its own timeout, capped as the RPC client caps it. */
  private timeoutOf(subject: SubjectName): number {
    return Math.min(SUBJECTS[subject].timeoutMs, this.config.RPC_TIMEOUT_MS ?? Infinity);
  }

  get enabled(): boolean {
    return this.settings !== undefined;
  }

  /** This request's challenge: CU × 10,000 USDC atomic units on every offered network. */
  challenge(request: FastifyRequest, id: OperationId, cu: number): Challenge {
    const origin = `${request.protocol}://${request.headers.host ?? 'localhost'}`;
    return challengeOf(
      {
        cu,
        resource: `${origin}${request.url}`,
        description: HTTP_OPERATIONS[id].summary,
        signupUrl: this.signupPath ?? `${origin}/dashboard/`,
      },
      this.settings!,
    );
  }

  /**
   * Verifies the request's payment, or throws the 402 (no payment header, or one that does not
   * pay: the reason says why) or a 429 (the client address's limit before verification, the
   * verified payer's after). Undefined: the same payment came again after it settled, and the
   * answer it paid for has been sent.
   */
  async admit(request: FastifyRequest, reply: FastifyReply, id: OperationId, cu: number): Promise<PaidRequest | undefined> {
    const challenge = this.challenge(request, id, cu);
    const paymentSignature = headerOf(request, 'payment-signature');
    const xPayment = headerOf(request, 'x-payment');
    if (paymentSignature === undefined && xPayment === undefined) throw paymentRequired(reply, challenge);
    // Nothing of the payment is proven yet: only the client's address is a fair key.
    await this.metering.admitClient(reply, request.ip, request.id);
    let offered;
    try {
      offered = offeredPayment({ paymentSignature, xPayment }, challenge);
    } catch (error) {
      if (error instanceof PaymentRejected) throw paymentRequired(reply, challenge, error.reason, error.message);
      throw error;
    }
    const resource = `${request.method} ${request.url}`;
    let verified;
    try {
      verified = await this.rpc.send(
        'credit.payments.verify.v1',
        {
          x402Version: offered.x402Version,
          payload: offered.payload,
          requirements: offered.requirements as unknown as Record<string, unknown>,
          requestId: request.id,
          operation: id,
          cu,
          resource,
          // The latest this request waits on its payment: its operation's answer, then its settlement.
          deadline: Date.now() + this.timeoutOf(HTTP_OPERATIONS[id].subjects.production) + this.settleTimeoutMs,
        },
        { requestId: request.id },
      );
    } catch (error) {
      const refusal = this.refusal(reply, challenge, error);
      x402Verifications.inc({ outcome: refusal.code === 'payment_required' ? 'refused' : 'unavailable' });
      throw refusal;
    }
    const { replay, ...payment } = verified;
    x402Verifications.inc({ outcome: replay === undefined ? 'verified' : 'replayed' });
    if (replay !== undefined) {
      paymentResponse(reply, { success: true, transaction: replay.transaction, network: payment.network, payer: payment.payer });
      void reply.code(replay.answer.statusCode).type(replay.answer.contentType).send(replay.answer.body);
      return undefined;
    }
    const paid: PaidRequest = { ...payment, challenge, resource };
    try {
      await this.metering.admitPayer(reply, verified.payer, request.id);
    } catch (error) {
      this.release(paid, 429);
      throw error;
    }
    return paid;
  }

  /**
   * Settles the payment of a successful response before it is sent, handing the payments service
   * the answer to keep: the PAYMENT-RESPONSE headers, or, when it does not settle, the 402 body
   * that replaces the response (nothing is served).
   */
  async settle(reply: FastifyReply, paid: PaidRequest, payload: unknown): Promise<string | undefined> {
    try {
      const settled = await this.rpc.send(
        'credit.payments.settle.v1',
        { paymentId: paid.paymentId, deadline: Date.now() + this.settleTimeoutMs, answer: answerOf(reply, paid, payload) },
        { timeoutMs: this.settleTimeoutMs },
      );
      paymentResponse(reply, settled);
      x402Settlements.inc({ outcome: 'settled' });
      return undefined;
    } catch (error) {
      const refusal = this.refusal(reply, paid.challenge, error);
      x402Settlements.inc({ outcome: refusal.code === 'payment_required' ? 'refused' : 'unavailable' });
      void reply.code(refusal.status);
      void reply.removeHeader('etag');
      void reply.removeHeader('cache-control');
      return JSON.stringify(errorBody(refusal));
    }
  }

  /** The request was not served (4xx, 5xx): its payment is closed unsettled. */
  release(paid: PaidRequest, statusCode: number): void {
    this.rpc.send('credit.payments.release.v1', { paymentId: paid.paymentId, statusCode }).catch((error: unknown) => {
      // Left reserved, the payments service's sweep closes it once the authorization lapses.
      this.logger.warn(`release of payment ${paid.paymentId} failed: ${(error as Error).message}`);
    });
  }

  /** A payments service refusal becomes the 402 with its reason; an outage stays what it is (503, 504). */
  private refusal(reply: FastifyReply, challenge: Challenge, error: unknown): DomainError {
    if (error instanceof DomainError && error.code === 'payment_required') {
      const reason = typeof error.data?.reason === 'string' ? error.data.reason : 'invalid_payment';
      return paymentRequired(reply, challenge, reason, error.message);
    }
    if (error instanceof DomainError) return error;
    return new DomainError('service_unavailable', 'Payments are unavailable; try again shortly');
  }
}

function paymentResponse(reply: FastifyReply, settled: PaymentSettleReply): void {
  const header = encodePaymentResponseHeader({ ...settled, network: settled.network as `${string}:${string}` });
  void reply.header('payment-response', header);
  void reply.header('x-payment-response', header);
}

/** The answer as it will be sent, to keep for a retry of the same payment; none when too large to keep. */
function answerOf(reply: FastifyReply, paid: PaidRequest, payload: unknown): PaymentAnswer | undefined {
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (body === undefined || body.length > MAX_KEPT_ANSWER_CHARS) return undefined;
  const contentType = reply.getHeader('content-type');
  return {
    resource: paid.resource,
    statusCode: reply.statusCode,
    contentType: typeof contentType === 'string' ? contentType : 'application/json; charset=utf-8',
    body,
  };
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? value[0] : undefined;
}

/** The 402: docs/API.md §2.11's body (with `reason` when a payment was refused) and the v2 header. */
function paymentRequired(reply: FastifyReply, challenge: Challenge, reason?: string, why?: string): DomainError {
  void reply.header('payment-required', challenge.header);
  void reply.header('x-payment-required', challenge.header);
  const message = why === undefined ? challenge.message : `Payment refused (${why}). ${challenge.message}`;
  return new DomainError('payment_required', message, reason === undefined ? challenge.body : { ...challenge.body, reason });
}
