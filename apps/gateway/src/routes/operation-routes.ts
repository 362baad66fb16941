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
import type { Reservation } from '@credit/metering/meter';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';
import { AuthenticateKey } from '../auth/authenticate-key';
import { reserveFor, servedFor } from '../metering/billable-units';
import { Metering } from '../metering/metering';
import { Forwarder } from './forwarder';
import { HTTP_ADDRESSES } from './http-input';

const METERED = Symbol('metered');

/** A request's reservation, and what its reply was charged once known. */
type WithMetering = WithAuth & { [METERED]?: { reservation: Reservation; served?: number } };

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
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // A callback hook: no promise per request when the key is cached.
    const authenticate = (request: FastifyRequest & WithAuth, _reply: FastifyReply, done: (error?: Error) => void) => {
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
    for (const variant of VARIANTS) {
      for (const id of OPERATION_IDS) {
        const operation: OperationMeta = { id, variant };
        const price = operationPrice(id, variant);
        fastify.route({
          method: HTTP_OPERATIONS[id].method,
          url: routePath(operationPath(id, variant)),
          // No automatic HEAD twin: it would run the whole request unpriced.
          exposeHeadRoute: false,
          config: { operation },
          onRequest: authenticate,
          // After the body is read, so a malformed body (400) is refused before anything is reserved.
          // A callback hook: no promise per request when a free request is admitted from the lease.
          preHandler: (request: FastifyRequest & WithMetering, reply: FastifyReply, done: (error?: Error) => void) => {
            const keep = (reservation: Reservation | undefined) => {
              if (reservation !== undefined) request[METERED] = { reservation };
              done();
            };
            try {
              const admitted = this.metering.admit(reply, request[AUTH_CONTEXT]!, {
                operation: id,
                cost: reserveFor(price, HTTP_ADDRESSES[id]?.(request) ?? []),
                requestId: request.id,
                limit: 'api',
              });
              if (admitted instanceof Promise) admitted.then(keep, done);
              else keep(admitted);
            } catch (error) {
              done(error as Error);
            }
          },
          handler: async (request: FastifyRequest & WithMetering) => {
            const result = await this.forwarder.forward(variant, id, request);
            const metered = request[METERED];
            if (metered !== undefined) metered.served = servedFor(id, price, result, metered.reservation.reserved);
            return result;
          },
          // Every answer, success or failure, settles its reservation before it is sent: a failure
          // (4xx, 5xx, a 504 even if the service finished) gives everything back.
          onSend: (
            request: FastifyRequest & WithMetering,
            reply: FastifyReply,
            payload: unknown,
            done: (error: Error | null, payload?: unknown) => void,
          ) => {
            const metered = request[METERED];
            if (metered === undefined) return done(null, payload);
            request[METERED] = undefined;
            const served = reply.statusCode < 400 ? (metered.served ?? metered.reservation.reserved) : 0;
            // settle never rejects: a refund Redis cannot take is logged and the charge stands.
            void this.metering.settle(reply, metered.reservation, served, reply.statusCode).then(() => done(null, payload));
          },
        });
      }
    }
    new Logger(OperationRoutes.name).log(`${VARIANTS.length * OPERATION_IDS.length} operation routes registered`);
  }
}
