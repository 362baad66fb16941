import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  HTTP_OPERATIONS,
  OPERATION_IDS,
  operationPath,
  operationPrice,
  type OperationId,
  type Variant,
} from '@credit/contracts/http-operations';
import { isIdempotent } from '@credit/contracts/subjects';
import type { Price } from '@credit/contracts/pricing';
import type { Reservation } from '@credit/metering/meter';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';
import { AuthenticateKey } from '../auth/authenticate-key';
import { reserveFor, servedFor } from '../metering/billable-units';
import { Metering, type MeteredRequest } from '../metering/metering';
import { X402Payments, type PaidRequest } from '../payments/x402-payments';
import { Forwarder } from './forwarder';
import { HTTP_ADDRESSES } from './http-input';

const METERED = Symbol('metered');
const AHEAD = Symbol('ahead');
const PAYING = Symbol('paying');
const PAID = Symbol('paid');

/**
 * A request's reservation, and what its reply was charged once known; or, on the x402 path (no
 * Authorization header), its verified payment.
 */
type WithMetering = WithAuth & {
  [METERED]?: { reservation: Reservation; served?: number };
  /** A read served while its admission is out: the admission, awaited before the answer leaves. */
  [AHEAD]?: Promise<Reservation | undefined>;
  [PAYING]?: boolean;
  [PAID]?: PaidRequest;
};

const VARIANTS: Variant[] = ['production', 'sandbox'];

export interface OperationMeta {
  id: OperationId;
  variant: Variant;
}

/** `/score/address/{address}` → `/score/address/:address` */
export function routePath(openApiPath: string): string {
  return openApiPath.replace(/\{([a-z_]+)\}/g, ':$1');
}

/**
 * The API's routes: one per operation of the contracts' HTTP table and variant, registered on
 * the Fastify instance under Nest (docs/decisions/0002). Each route authenticates in its
 * `onRequest` hook with the same use case as the Nest guard, carries its operation in the route
 * config (for pricing and metering), and answers 200 with the subject's reply. A failure is
 * thrown, and Nest's exception layer gives it its docs/API.md §7 body like any other.
 */
@Injectable()
export class OperationRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authenticate: AuthenticateKey,
    private readonly forwarder: Forwarder,
    private readonly metering: Metering,
    private readonly x402: X402Payments,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // A callback hook: no promise per request when the key is cached.
    const authenticate = (request: FastifyRequest & WithMetering, _reply: FastifyReply, done: (error?: Error) => void) => {
      try {
        const auth = this.authenticate.execute(request.headers.authorization);
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
    // A production route without an Authorization header takes the x402 path (402, or a payment).
    // A bad Authorization stays 401: never a silent fall-through to payment.
    const authenticateOrPay = (request: FastifyRequest & WithMetering, reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.headers.authorization !== undefined || !this.x402.enabled) return authenticate(request, reply, done);
      request[PAYING] = true;
      done();
    };
    for (const variant of VARIANTS) {
      for (const id of OPERATION_IDS) {
        const operation: OperationMeta = { id, variant };
        const price = operationPrice(id, variant);
        // A production read (asking twice changes nothing) may run while its admission is out.
        const mayRunAhead = variant === 'production' && isIdempotent(HTTP_OPERATIONS[id].subjects.production);
        fastify.route({
          method: HTTP_OPERATIONS[id].method,
          url: routePath(operationPath(id, variant)),
          // No automatic HEAD twin: it would run the whole request unpriced.
          exposeHeadRoute: false,
          config: { operation },
          onRequest: variant === 'production' ? authenticateOrPay : authenticate,
          // After the body is read, so a malformed body (400) is refused before anything is reserved.
          // A callback hook: no promise per request when a free request is admitted from the lease.
          preHandler: (request: FastifyRequest & WithMetering, reply: FastifyReply, done: (error?: Error) => void) => {
            if (request[PAYING] === true) {
              // Paid per request: the amount signed covers every address that can be valid (at least 1 CU).
              const cu = Math.max(1, reserveFor(price, HTTP_ADDRESSES[id]?.(request) ?? []));
              this.x402.admit(request, reply, id, cu).then((paid) => {
                if (paid === undefined) return; // the same payment again: its kept answer was sent
                request[PAID] = paid;
                done();
              }, done);
              return;
            }
            const keep = (reservation: Reservation | undefined) => {
              if (reservation !== undefined) request[METERED] = { reservation };
              done();
            };
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
                request[AHEAD] = ahead;
                return done();
              }
              const admitted = this.metering.admit(reply, auth, metered);
              if (admitted instanceof Promise) admitted.then(keep, done);
              else keep(admitted);
            } catch (error) {
              done(error as Error);
            }
          },
          // A sandbox request is free and never paid: its answer goes out as the service gave it.
          ...(variant === 'sandbox'
            ? { handler: (request: FastifyRequest) => this.forwarder.forward(variant, id, request) }
            : this.settled(id, price)),
        });
      }
    }
    new Logger(OperationRoutes.name).log(`${VARIANTS.length * OPERATION_IDS.length} operation routes registered`);
  }

  /**
   * The service's answer to a production request. One running ahead of its admission is sent at
   * once, and its answer waits for the admission: a refusal is thrown in its place (the service's
   * answer dropped, nothing charged); an admission keeps its reservation for `onSend` to settle.
   */
  private async served(id: OperationId, request: FastifyRequest & WithMetering): Promise<unknown> {
    const ahead = request[AHEAD];
    if (ahead === undefined) return this.forwarder.forward('production', id, request);
    const forwarding = new Promise<unknown>((resolve) => resolve(this.forwarder.forward('production', id, request)));
    forwarding.catch(() => undefined); // refused: the refusal is the answer
    const reservation = await ahead;
    if (reservation !== undefined) request[METERED] = { reservation };
    return forwarding;
  }

  /**
   * A production route's handler and `onSend` hook: the handler records what the reply was
   * charged, and every answer, success or failure, settles its reservation (or its payment) before
   * it is sent: a failure (4xx, 5xx, a 504 even if the service finished) gives everything back.
   */
  private settled(id: OperationId, price: Price) {
    return {
      handler: async (request: FastifyRequest & WithMetering) => {
        const result = await this.served(id, request);
        const metered = request[METERED];
        if (metered !== undefined) metered.served = servedFor(id, price, result, metered.reservation.reserved);
        return result;
      },
      onSend: (
        request: FastifyRequest & WithMetering,
        reply: FastifyReply,
        payload: unknown,
        done: (error: Error | null, payload?: unknown) => void,
      ) => {
        const paid = request[PAID];
        if (paid !== undefined) {
          request[PAID] = undefined;
          if (reply.statusCode >= 400) {
            this.x402.release(paid, reply.statusCode);
            return done(null, payload);
          }
          // settle never rejects: a payment that does not settle replaces the response with its 402.
          void this.x402.settle(reply, paid, payload).then((refusal) => done(null, refusal ?? payload));
          return;
        }
        const metered = request[METERED];
        if (metered === undefined) return done(null, payload);
        request[METERED] = undefined;
        const served = reply.statusCode < 400 ? (metered.served ?? metered.reservation.reserved) : 0;
        // settle never rejects: a refund Redis cannot take is logged and the charge stands.
        // Nothing to give back (a full answer): settled at once, no promise.
        const settling = this.metering.settle(reply, metered.reservation, served, reply.statusCode);
        if (settling === undefined) return done(null, payload);
        void settling.then(() => done(null, payload));
      },
    };
  }
}
