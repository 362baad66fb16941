import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { HTTP_OPERATIONS, operationPrice, type OperationId, type Variant } from '@credit/contracts/http-operations';
import type { Price } from '@credit/contracts/pricing';
import { isIdempotent } from '@credit/contracts/subjects';
import type { Reservation } from '@credit/metering/meter';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';
import { AuthenticateKey } from '../auth/authenticate-key';
import { reserveFor, servedFor } from '../metering/billable-units';
import { Metering, type MeteredRequest } from '../metering/metering';
import { StatusTally } from '../metering/status-tally';
import { X402Payments, type PaidRequest } from '../payments/x402-payments';
import { Forwarder } from './forwarder';
import { HTTP_ADDRESSES } from './http-input';

/**
 * A request's billing state, from its `onRequest` hook to its `onSend` hook:
 * - `free`: nothing to settle (the sandbox, metering off, a request of 0 CU, a refused run-ahead);
 * - `paying`: no Authorization header on a production route with x402 on, its payment not yet verified;
 * - `paid`: its payment verified, settled by a success or released by a failure;
 * - `ahead`: a read served while its admission is out, which the handler awaits before answering;
 * - `metered`: CU reserved, and once the answer is known, the CU it was charged (`served`).
 */
export type Billing =
  | { readonly kind: 'free' }
  | { readonly kind: 'paying' }
  | { readonly kind: 'paid'; readonly payment: PaidRequest }
  | { readonly kind: 'ahead'; readonly admission: Promise<Reservation | undefined> }
  | { readonly kind: 'metered'; readonly reservation: Reservation; served?: number };

const BILLING = Symbol('billing');

/** Shared, so the states without data cost no allocation per request. */
const FREE: Billing = { kind: 'free' };
const PAYING: Billing = { kind: 'paying' };

type BilledRequest = FastifyRequest & WithAuth & { [BILLING]?: Billing };
type Done = (error?: Error) => void;

/** One route's hooks and handler, spread into Fastify's route options. */
export type RouteBilling = Pick<RouteShorthandOptions, 'onRequest' | 'preHandler' | 'onSend' | 'onResponse'> & {
  handler: (request: FastifyRequest) => Promise<unknown>;
};

/**
 * The operation routes' authentication and billing as Fastify hooks (docs/decisions/0002):
 * `onRequest` authenticates (or, on a production route without an Authorization header, takes
 * the x402 path); `preHandler`, once the body is read, reserves the request's CU or verifies its
 * payment; the handler forwards it and records what its reply is charged; `onSend` settles the
 * reservation (or the payment) before the answer leaves. Callback hooks: no promise per request
 * when the key is cached and a free request is admitted from the lease.
 */
@Injectable()
export class BillingHooks {
  constructor(
    private readonly authenticateKey: AuthenticateKey,
    private readonly forwarder: Forwarder,
    private readonly metering: Metering,
    private readonly x402: X402Payments,
    private readonly statuses: StatusTally,
  ) {}

  /** The hooks and handler of one operation's route in one variant. */
  of(id: OperationId, variant: Variant): RouteBilling {
    const price = operationPrice(id, variant);
    // A production read (asking twice changes nothing) may run while its admission is out.
    const mayRunAhead = variant === 'production' && isIdempotent(HTTP_OPERATIONS[id].subjects.production);
    if (variant === 'sandbox') {
      // Free and never paid: its answer goes out as the service gave it.
      return {
        onRequest: this.authenticate,
        preHandler: this.admission(id, price, false),
        handler: (request) => this.forwarder.forward(variant, id, request),
      };
    }
    return {
      onRequest: this.authenticateOrPay,
      preHandler: this.admission(id, price, mayRunAhead),
      handler: async (request: BilledRequest) => {
        const result = await this.served(id, request);
        const billing = request[BILLING];
        if (billing?.kind === 'metered') billing.served = servedFor(id, price, result, billing.reservation.reserved);
        return result;
      },
      onSend: this.settle,
      onResponse: this.countStatus,
    };
  }

  /** Every answered production request of a key, by status class, for the dashboard (x402 callers have no key). */
  private readonly countStatus = (request: BilledRequest, reply: FastifyReply, done: Done): void => {
    const auth = request[AUTH_CONTEXT];
    if (auth !== undefined) this.statuses.count(auth.account.id, auth.keyId, reply.statusCode);
    done();
  };

  /** The same use case as the Nest guard; a callback hook, with no promise when the key is cached. */
  private readonly authenticate = (request: BilledRequest, _reply: FastifyReply, done: Done): void => {
    try {
      const auth = this.authenticateKey.execute(request.headers.authorization);
      if (!(auth instanceof Promise)) {
        request[AUTH_CONTEXT] = auth;
        return done();
      }
      auth.then((value) => {
        request[AUTH_CONTEXT] = value;
        done();
      }, done);
    } catch (error) {
      done(error as Error);
    }
  };

  /**
   * A production route without an Authorization header takes the x402 path (402, or a payment).
   * A bad Authorization stays 401: never a silent fall-through to payment.
   */
  private readonly authenticateOrPay = (request: BilledRequest, reply: FastifyReply, done: Done): void => {
    if (request.headers.authorization !== undefined || !this.x402.enabled) return this.authenticate(request, reply, done);
    request[BILLING] = PAYING;
    done();
  };

  /**
   * After the body is read, so a malformed body (400) is refused before anything is reserved: the
   * payment verified (x402), or the CU reserved; a read that may run ahead only starts its admission.
   */
  private admission(id: OperationId, price: Price, mayRunAhead: boolean) {
    return (request: BilledRequest, reply: FastifyReply, done: Done): void => {
      if (request[BILLING]?.kind === 'paying') {
        // Paid per request: the amount signed covers every address that can be valid (at least 1 CU).
        const cu = Math.max(1, reserveFor(price, HTTP_ADDRESSES[id]?.(request) ?? []));
        this.x402.admit(request, reply, id, cu).then((payment) => {
          if (payment === undefined) return; // the same payment again: its kept answer was sent
          request[BILLING] = { kind: 'paid', payment };
          done();
        }, done);
        return;
      }
      try {
        const auth = request[AUTH_CONTEXT]!;
        const metered: MeteredRequest = {
          operation: id,
          cost: reserveFor(price, HTTP_ADDRESSES[id]?.(request) ?? []),
          requestId: request.id,
          limit: 'api',
        };
        const ahead = mayRunAhead ? this.metering.admitAhead(reply, auth, metered) : undefined;
        if (ahead !== undefined) {
          ahead.catch(() => undefined); // the handler awaits it, and meets its refusal there
          request[BILLING] = { kind: 'ahead', admission: ahead };
          return done();
        }
        const admitted = this.metering.admit(reply, auth, metered);
        if (!(admitted instanceof Promise)) {
          request[BILLING] = billingOf(admitted);
          return done();
        }
        admitted.then((reservation) => {
          request[BILLING] = billingOf(reservation);
          done();
        }, done);
      } catch (error) {
        done(error as Error);
      }
    };
  }

  /**
   * The service's answer to a production request. One running ahead of its admission is sent at
   * once, and its answer waits for the admission: a refusal is thrown in its place (the service's
   * answer dropped, nothing charged); an admission keeps its reservation for `onSend` to settle.
   */
  private async served(id: OperationId, request: BilledRequest): Promise<unknown> {
    const billing = request[BILLING];
    if (billing?.kind !== 'ahead') return this.forwarder.forward('production', id, request);
    const forwarding = new Promise<unknown>((resolve) => resolve(this.forwarder.forward('production', id, request)));
    forwarding.catch(() => undefined); // refused: the refusal is the answer
    request[BILLING] = billingOf(await billing.admission);
    return forwarding;
  }

  /**
   * Every answer of a production route, success or failure, settles its reservation (or its
   * payment) before it is sent: a failure (4xx, 5xx, a 504 even if the service finished) gives
   * everything back and releases the payment.
   */
  private readonly settle = (
    request: BilledRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ): void => {
    const billing = request[BILLING];
    // Settled once: whatever happens next, this request owes nothing more.
    request[BILLING] = FREE;
    switch (billing?.kind) {
      case 'paid': {
        if (reply.statusCode >= 400) {
          this.x402.release(billing.payment, reply.statusCode);
          return done(null, payload);
        }
        // settle never rejects: a payment that does not settle replaces the response with its 402.
        void this.x402.settle(reply, billing.payment, payload).then((refusal) => done(null, refusal ?? payload));
        return;
      }
      case 'metered': {
        const served = reply.statusCode < 400 ? (billing.served ?? billing.reservation.reserved) : 0;
        // settle never rejects: a refund Redis cannot take is logged and the charge stands.
        // Nothing to give back (a full answer): settled at once, no promise.
        const settling = this.metering.settle(reply, billing.reservation, served, reply.statusCode);
        if (settling === undefined) return done(null, payload);
        void settling.then(() => done(null, payload));
        return;
      }
      default:
        // Free, a payment refused before it was verified, or a run-ahead refused: nothing was taken.
        return done(null, payload);
    }
  };
}

function billingOf(reservation: Reservation | undefined): Billing {
  return reservation === undefined ? FREE : { kind: 'metered', reservation };
}
