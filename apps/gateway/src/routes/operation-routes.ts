import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HTTP_OPERATIONS, OPERATION_IDS, operationPath, type OperationId, type Variant } from '@credit/contracts/http-operations';
import { AUTH_CONTEXT, type WithAuth } from '../auth/auth-context';
import { AuthenticateKey } from '../auth/authenticate-key';
import { Forwarder } from './forwarder';

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
        fastify.route({
          method: HTTP_OPERATIONS[id].method,
          url: routePath(operationPath(id, variant)),
          config: { operation },
          onRequest: authenticate,
          handler: (request: FastifyRequest) => this.forwarder.forward(variant, id, request),
        });
      }
    }
    new Logger(OperationRoutes.name).log(`${VARIANTS.length * OPERATION_IDS.length} operation routes registered`);
  }
}
